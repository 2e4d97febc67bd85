import { DomainError, invalidJson, type Issue } from "@/lib/core/errors";
export { parseWith } from "@/lib/core/validation";
// Routes outside lib read raw bodies through the same bounded reader.
export { readBodyBytes, UNVERIFIED_BODY_MAX_BYTES } from "@/lib/net/body";
import { readBodyBytes } from "@/lib/net/body";

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
