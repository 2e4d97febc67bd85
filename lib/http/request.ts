import { z } from "zod";
import { ApiError, type Issue } from "./errors";
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
  const text = new TextDecoder().decode(bytes);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new ApiError("invalid_json", "Request body is not valid JSON");
  }
  // JSON can carry a NUL only as the escape `\u0000`: the body is walked only when it has one.
  if (text.includes("\\u0000")) refuseNul("invalid_body", body);
  return body;
}

const NUL = "\u0000";

/**
 * PostgreSQL keeps no NUL character in text or jsonb (the statement fails), and no id, name or
 * prompt needs one: input carrying one is refused up front with the place of each.
 */
export function refuseNul(code: "invalid_body" | "invalid_query" | "invalid_params", value: unknown): void {
  type Place = { key: string; parent: Place | null } | null;
  const pathOf = (place: Place): string[] => {
    const path: string[] = [];
    for (let p = place; p; p = p.parent) path.push(p.key);
    return path.reverse();
  };
  const issues: Issue[] = [];
  // Iterative, with each place linked to its parent: a body may nest deeper than the call stack goes.
  const pending: [unknown, Place][] = [[value, null]];
  while (pending.length && issues.length < 20) {
    const [v, place] = pending.pop()!;
    if (typeof v === "string") {
      if (v.includes(NUL)) issues.push({ path: pathOf(place), message: "Must not contain NUL characters (\\u0000)" });
    } else if (v && typeof v === "object") {
      // Pushed last to first, so they come off in document order.
      for (const [key, item] of Object.entries(v).reverse()) {
        const here = { key, parent: place };
        if (key.includes(NUL)) issues.push({ path: pathOf(here), message: "Names must not contain NUL characters (\\u0000)" });
        pending.push([item, here]);
      }
    }
  }
  if (!issues.length) return;
  throw new ApiError(code, `${issues[0]!.path.join(".")}: ${issues[0]!.message}`, { issues });
}

/** Query string → plain object (a repeated name keeps its last value); NUL characters refused. */
export function queryObject(url: URL): Record<string, string> {
  const query = Object.fromEntries(url.searchParams.entries());
  if (url.search.includes("%00")) refuseNul("invalid_query", query);
  return query;
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
