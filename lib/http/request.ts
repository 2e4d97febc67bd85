import { z } from "zod";
import { ApiError } from "./errors";
import { validationError } from "./render";

/**
 * Reads a request body into memory, refusing it as soon as it passes `maxBytes`: a declared
 * Content-Length over the cap is refused unread, and a chunked body is cut off mid-stream.
 */
export async function readBodyBytes(req: Request, maxBytes: number): Promise<Uint8Array> {
  const declared = Number(req.headers.get("content-length") ?? NaN);
  if (declared > maxBytes) throw tooLarge(maxBytes);
  if (!req.body) return new Uint8Array(0);
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => {});
      throw tooLarge(maxBytes);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

const tooLarge = (maxBytes: number) =>
  new ApiError("payload_too_large", `Request body is larger than ${maxBytes} bytes`);

const JSON_TYPE = /^application\/([\w.+-]+\+)?json\s*(;|$)/i;

/** Parses a JSON body: undefined when empty, 415 for a non-JSON Content-Type, 400 invalid_json. */
export async function readJson(req: Request, maxBytes: number): Promise<unknown> {
  const type = req.headers.get("content-type");
  const bytes = await readBodyBytes(req, maxBytes);
  if (bytes.byteLength === 0) return undefined;
  // A missing Content-Type is read as JSON: many scripted clients omit it.
  if (type && !JSON_TYPE.test(type)) {
    throw new ApiError("unsupported_media_type", `Content-Type ${type.split(";")[0]} is not accepted; send application/json`);
  }
  try {
    return JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    throw new ApiError("invalid_json", "Request body is not valid JSON");
  }
}

/** Query string → plain object (a repeated name keeps its last value). */
export function queryObject(url: URL): Record<string, string> {
  return Object.fromEntries(url.searchParams.entries());
}

export function parseWith<T extends z.ZodType>(
  schema: T,
  value: unknown,
  code: "invalid_body" | "invalid_query" | "invalid_params",
): z.output<T> {
  const result = schema.safeParse(value);
  if (!result.success) throw validationError(code, result.error);
  return result.data;
}
