import type { ServiceContext } from "@/lib/auth/context";
import { Readable } from "node:stream";
import { DomainError, isDomainError } from "@/lib/core/errors";
import { env } from "@/lib/core/env";
import { getStorage } from "@/lib/storage";
import { readJsonUpload } from "./json-upload";
import { isMultipart, readMultipartFile } from "./multipart";
import { storeUpload, type StoredUpload } from "./store-upload";

const JSON_TYPE = /^application\/([\w.+-]+\+)?json\s*(;|$)/i;

/**
 * One upload from an HTTP request: multipart (`file` field) on both surfaces, and on the skill
 * surface also JSON `{data, mime_type, filename}`. Storage is checked first, so a server without
 * storage answers 503 before reading the body.
 */
export async function receiveUpload(ctx: ServiceContext, req: Request, options: { allowJson: boolean }): Promise<StoredUpload> {
  const storage = getStorage();
  const maxBytes = env().MAX_UPLOAD_BYTES;
  const userId = ctx.principal.userId;
  const contentType = req.headers.get("content-type");
  if (isMultipart(contentType)) {
    return readMultipartFile(req, maxBytes, (file) => storeUpload(ctx.db, storage, userId, file, maxBytes));
  }
  if (options.allowJson && (!contentType || JSON_TYPE.test(contentType))) {
    const decoded = await readJsonUpload(req, maxBytes);
    return storeUpload(ctx.db, storage, userId, { ...decoded, stream: Readable.from([decoded.bytes]) }, maxBytes);
  }
  throw new DomainError(
    "unsupported_media_type",
    options.allowJson
      ? "Send the upload as multipart/form-data with a `file` field, or as JSON {data, mime_type, filename}"
      : "Send the upload as multipart/form-data with a `file` field",
  );
}

/**
 * The skill surface documents one status for a file it cannot take: 400 (its code stays
 * INVALID_PARAMS, with the gateway code in `details.reason`). Size keeps its 413.
 */
export function asSkillUploadError(err: unknown): unknown {
  if (isDomainError(err) && err.code === "unsupported_media_type") {
    return new DomainError(err.code, err.message, err.extra, err.headers, 400);
  }
  return err;
}
