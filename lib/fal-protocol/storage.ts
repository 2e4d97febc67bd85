import { createHmac, randomUUID, timingSafeEqual } from "node:crypto";
import { Readable } from "node:stream";
import type { ReadableStream as NodeWebReadableStream } from "node:stream/web";
import { eq } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/db/client";
import { assets } from "@/db/schema";
import { assetKey } from "@/lib/assets/keys";
import { authSecret } from "@/lib/auth/secret";
import { env } from "@/lib/core/env";
import { DomainError } from "@/lib/core/errors";
import { parseWith } from "@/lib/core/validation";
import { getStorage } from "@/lib/storage";
import { extensionFor } from "@/lib/storage/media-types";
import { declaredUploadType, UPLOAD_CONTENT_TYPES, type UploadContentType } from "@/lib/uploads/classify";
import { storeUpload, uploadUrlUsed } from "@/lib/uploads/store-upload";

/**
 * fal's storage protocol (what `fal.storage.upload`, and `fal.subscribe` with a Blob in its
 * input, do): `POST rest.fal.ai/storage/upload/initiate {content_type, file_name}` answers
 * `{upload_url, file_url}`; the client PUTs the bytes to `upload_url` with plain fetch (no
 * credentials, no proxy) and uses `file_url` as the input.
 *
 * Here `upload_url` is `{APP_URL}/fal/storage/upload/{token}`: the token is signed (HMAC of the
 * auth secret) and names the caller, the upload's id and its type, so the PUT needs no key and
 * can store exactly one file, as the caller's upload (an asset of kind `upload`, listed and
 * deletable like any other). `file_url` is that upload's permanent public URL, known in advance
 * because its key is the id plus the extension of the declared type; bytes of another type are
 * refused (415). The file then works as a model input like any upload.
 */
const TOKEN_TTL_SECONDS = 3600;
const PURPOSE = "fal-storage-upload";

const initiateBody = z.object({
  content_type: z.string().min(1).max(255),
  file_name: z.string().max(255).optional(),
});

type Claims = { u: string; i: string; t: UploadContentType; n: string | null; e: number };

const macOf = (payload: string) =>
  createHmac("sha256", createHmac("sha256", authSecret()).update(PURPOSE).digest()).update(payload).digest("base64url");

function signToken(claims: Claims): string {
  const payload = Buffer.from(JSON.stringify(claims)).toString("base64url");
  return `${payload}.${macOf(payload)}`;
}

const invalidToken = () => new DomainError("not_found", "Unknown or expired upload URL; initiate the upload again");

function readToken(token: string, now = Date.now()): Claims {
  const [payload, mac] = token.split(".");
  if (!payload || !mac) throw invalidToken();
  const expected = Buffer.from(macOf(payload));
  const given = Buffer.from(mac);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw invalidToken();
  let claims: Claims;
  try {
    claims = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as Claims;
  } catch {
    throw invalidToken();
  }
  if (typeof claims.e !== "number" || claims.e * 1000 <= now || !UPLOAD_CONTENT_TYPES.includes(claims.t)) throw invalidToken();
  return claims;
}

const origin = () => env().APP_URL.replace(/\/$/, "");

/** `initiate`: the signed upload URL and the file's URL-to-be. 415 for a type uploads do not accept. */
export async function initiateUpload(userId: string, raw: unknown) {
  const body = parseWith(initiateBody, raw ?? {}, "invalid_body");
  const storage = getStorage();
  const type = declaredUploadType(body.content_type);
  if (!type) {
    throw new DomainError(
      "unsupported_media_type",
      `content_type ${body.content_type} is not accepted; accepted types: ${UPLOAD_CONTENT_TYPES.join(", ")}`,
    );
  }
  const id = randomUUID();
  const token = signToken({ u: userId, i: id, t: type, n: body.file_name ?? null, e: Math.floor(Date.now() / 1000) + TOKEN_TTL_SECONDS });
  return {
    upload_url: `${origin()}/fal/storage/upload/${token}`,
    file_url: storage.publicUrl(assetKey("upload", id, extensionFor(type))),
  };
}

/** The PUT to an upload URL: stores the body once, as the token's owner's upload. */
export async function receiveSignedUpload(db: Db, token: string, req: Request) {
  const claims = readToken(token);
  const storage = getStorage();
  const [existing] = await db.select({ id: assets.id }).from(assets).where(eq(assets.id, claims.i)).limit(1);
  // A cheap early answer for a used URL; the claim in storeUpload decides between concurrent PUTs.
  if (existing) throw uploadUrlUsed();
  if (!req.body) throw new DomainError("invalid_body", "The file is empty", { issues: [{ path: ["file"], message: "The file is empty" }] });
  const maxBytes = env().MAX_UPLOAD_BYTES;
  const declared = Number(req.headers.get("content-length") ?? NaN);
  if (declared > maxBytes)
    throw new DomainError("asset_too_large", `The file is larger than the upload limit of ${maxBytes} bytes`, { limitBytes: maxBytes });
  const stream = Readable.fromWeb(req.body as unknown as NodeWebReadableStream<Uint8Array>);
  const stored = await storeUpload(db, storage, claims.u, { stream, declaredType: claims.t, filename: claims.n }, maxBytes, {
    id: claims.i,
    contentType: claims.t,
  });
  return { file_url: stored.asset.publicUrl, content_type: stored.asset.contentType, file_size: stored.asset.sizeBytes };
}
