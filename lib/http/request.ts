import { z } from "zod";
import { DomainError, invalidJson, type Issue } from "@/lib/errors";
export { parseWith } from "@/lib/validation";

/**
 * The one body reader: every route reads its body through this (readJson, uploads sent as JSON,
 * webhooks, /api/inngest). It keeps at most `maxBytes` in memory and refuses the body with 413
 * payload_too_large as soon as it passes them: a declared Content-Length over the cap is refused
 * unread, and a chunked body is read no further than the chunk that crosses the cap.
 */
export async function readBodyBytes(req: Request, maxBytes: number): Promise<Uint8Array<ArrayBuffer>> {
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

/**
 * The cap of a body read before its sender is known (incoming webhooks, Inngest's sync): 1 MiB,
 * whatever MAX_BODY_BYTES says. Providers' completion and payment notifications are a few
 * kilobytes (media travel as links), so anything larger is refused without being kept.
 */
export const UNVERIFIED_BODY_MAX_BYTES = 1024 * 1024;

const tooLarge = (maxBytes: number) => new DomainError("payload_too_large", `Request body is larger than ${maxBytes} bytes`);

const JSON_TYPE = /^application\/([\w.+-]+\+)?json\s*(;|$)/i;

/** Parses a JSON body: undefined when empty, 415 for a non-JSON Content-Type, 400 invalid_json. */
export async function readJson(req: Request, maxBytes: number): Promise<unknown> {
  const type = req.headers.get("content-type");
  const bytes = await readBodyBytes(req, maxBytes);
  if (bytes.byteLength === 0) return undefined;
  // A missing Content-Type is read as JSON: many scripted clients omit it.
  if (type && !JSON_TYPE.test(type)) {
    throw new DomainError("unsupported_media_type", `Content-Type ${type.split(";")[0]} is not accepted; send application/json`);
  }
  const text = new TextDecoder().decode(bytes);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw invalidJson();
  }
  // Nesting that deep only serves to exhaust the stack of whatever walks the value later.
  if (text.length > 2 * MAX_NESTING && nestingOf(text) > MAX_NESTING) {
    throw new DomainError("invalid_body", `The body is nested deeper than ${MAX_NESTING} levels`, {
      issues: [{ path: [], message: `Nested deeper than ${MAX_NESTING} levels` }],
    });
  }
  // JSON carries a NUL or a lone surrogate only as an escape: the value is walked only then.
  if (text.includes("\\u0000") || /\\u[dD][89a-fA-F]/.test(text)) refuseUnstorableText("invalid_body", body);
  return body;
}

const MAX_NESTING = 64;

/** How deep arrays and objects nest in JSON text (brackets inside strings do not count). */
function nestingOf(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) deepest = Math.max(deepest, ++depth);
    else if (c === 0x5d || c === 0x7d) depth--;
  }
  return deepest;
}

const NUL = "\u0000";

const problemOf = (text: string): string | null =>
  text.includes(NUL)
    ? "must not contain NUL characters (\\u0000)"
    : text.isWellFormed()
      ? null
      : "must be well-formed Unicode (a lone surrogate escape)";

/**
 * PostgreSQL keeps no NUL character and no lone surrogate in text or jsonb (the statement fails),
 * and no id, name or prompt needs one: input carrying one is refused up front, each place named.
 */
function refuseUnstorableText(code: "invalid_body" | "invalid_query", value: unknown): void {
  type Place = { key: string; parent: Place | null } | null;
  const pathOf = (place: Place): string[] => {
    const path: string[] = [];
    for (let p = place; p; p = p.parent) path.push(p.key);
    return path.reverse();
  };
  const issues: Issue[] = [];
  // Iterative, with each place linked to its parent: no recursion however deep the value.
  const pending: [unknown, Place][] = [[value, null]];
  while (pending.length && issues.length < 20) {
    const [v, place] = pending.pop()!;
    if (typeof v === "string") {
      const problem = problemOf(v);
      if (problem) issues.push({ path: pathOf(place), message: `Text ${problem}` });
    } else if (v && typeof v === "object") {
      // Pushed last to first, so they come off in document order.
      for (const [key, item] of Object.entries(v).reverse()) {
        const here = { key, parent: place };
        const problem = problemOf(key);
        if (problem) issues.push({ path: pathOf(here), message: `A name ${problem}` });
        pending.push([item, here]);
      }
    }
  }
  if (!issues.length) return;
  throw new DomainError(code, `${issues[0]!.path.join(".")}: ${issues[0]!.message}`, { issues });
}

/** Query string → plain object (a repeated name keeps its last value); NUL characters refused. */
export function queryObject(url: URL): Record<string, string> {
  const query = Object.fromEntries(url.searchParams.entries());
  if (url.search.includes("%00")) refuseUnstorableText("invalid_query", query);
  return query;
}
