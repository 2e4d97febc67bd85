import { z } from "zod";
import { DomainError, invalidJson, isDomainError } from "@/lib/core/errors";
import { readBodyBytes } from "@/lib/net/body";
import { parseWith } from "@/lib/core/validation";
import { tooLarge } from "./multipart";

export const jsonUploadBody = z
  .object({
    data: z.string().min(1).meta({ description: "The file as base64, or a data URL (`data:<type>;base64,<data>`)" }),
    mime_type: z
      .string()
      .max(255)
      .optional()
      .meta({ description: "The file's type; needed when `data` is not a data URL. The bytes must agree with it" }),
    filename: z.string().max(1024).optional(),
  })
  .refine((b) => b.data.startsWith("data:") || b.mime_type !== undefined, {
    path: ["mime_type"],
    message: "mime_type is required when data is plain base64 rather than a data URL",
  })
  .meta({ id: "JsonUpload" });

export type DecodedUpload = { bytes: Buffer; declaredType: string | null; filename: string | null };

const BASE64 = /^[A-Za-z0-9+/_-]*={0,2}$/;
const DATA_URL = /^data:([^,]*?),/i;

/** Largest JSON body that can carry maxBytes of base64 data, with room for the other fields. */
export const jsonUploadCap = (maxBytes: number) => Math.ceil(maxBytes / 3) * 4 + 64 * 1024;

function decodeBase64(text: string, maxBytes: number, field: string): Buffer {
  const compact = text.replace(/\s+/g, "");
  if (!BASE64.test(compact) || compact.replace(/=+$/, "").length % 4 === 1) {
    throw new DomainError("invalid_body", `${field} is not valid base64`, { issues: [{ path: ["data"], message: "Invalid base64" }] });
  }
  if (Math.floor((compact.replace(/=+$/, "").length * 3) / 4) > maxBytes) throw tooLarge(maxBytes);
  return Buffer.from(compact, compact.includes("-") || compact.includes("_") ? "base64url" : "base64");
}

/** A non-base64 data URL's payload: %XX escapes become bytes, other characters their UTF-8. */
function percentDecode(text: string): Buffer {
  const out = Buffer.allocUnsafe(Buffer.byteLength(text, "utf8"));
  let at = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const hex = code === 37 ? text.slice(i + 1, i + 3) : "";
    if (hex.length === 2 && /^[0-9a-f]{2}$/i.test(hex)) {
      out[at++] = parseInt(hex, 16);
      i += 2;
    } else if (code < 0x80) {
      out[at++] = code;
    } else {
      const ch = String.fromCodePoint(text.codePointAt(i)!);
      at += out.write(ch, at, "utf8");
      i += ch.length - 1;
    }
  }
  return out.subarray(0, at);
}

/** `{data, mime_type, filename}` → bytes and the declared type (a data URL's type wins). */
export function decodeJsonUpload(body: z.output<typeof jsonUploadBody>, maxBytes: number): DecodedUpload {
  const filename = body.filename ?? null;
  const match = DATA_URL.exec(body.data);
  if (!match) return { bytes: decodeBase64(body.data, maxBytes, "data"), declaredType: body.mime_type ?? null, filename };
  const params = match[1]!.split(";").map((p) => p.trim());
  const isBase64 = params.at(-1)?.toLowerCase() === "base64";
  const declaredType = params[0] || body.mime_type || null;
  const payload = body.data.slice(match[0].length);
  if (isBase64) return { bytes: decodeBase64(payload, maxBytes, "The data URL"), declaredType, filename };
  if (payload.length > maxBytes * 3) throw tooLarge(maxBytes);
  const bytes = percentDecode(payload);
  if (bytes.byteLength > maxBytes) throw tooLarge(maxBytes);
  return { bytes, declaredType, filename };
}

/** Reads and validates a JSON upload body, capped so the decoded file can reach maxBytes. */
export async function readJsonUpload(req: Request, maxBytes: number): Promise<DecodedUpload> {
  let raw: Uint8Array;
  try {
    raw = await readBodyBytes(req, jsonUploadCap(maxBytes));
  } catch (err) {
    if (isDomainError(err) && err.code === "payload_too_large") throw tooLarge(maxBytes);
    throw err;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder().decode(raw));
  } catch {
    throw invalidJson();
  }
  return decodeJsonUpload(parseWith(jsonUploadBody, parsed, "invalid_body"), maxBytes);
}
