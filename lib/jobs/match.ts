/**
 * Pre-filters for the common expression shape `event.<path> == async.<path>` (what `match:` in
 * waitForEvent and cancelOn compiles to), so an incoming event only loads the waits and runs one
 * of its values could satisfy. The CEL expression still decides; these only narrow the search.
 */
const SIDE = /^\s*(event|async)\.([A-Za-z_][\w]*(?:\.[A-Za-z_][\w]*)*)\s*==\s*(event|async)\.([A-Za-z_][\w]*(?:\.[A-Za-z_][\w]*)*)\s*$/;

export function simpleEquality(expression: string | null | undefined): { eventPath: string[]; asyncPath: string[] } | undefined {
  const m = expression ? SIDE.exec(expression) : null;
  if (!m || m[1] === m[3]) return undefined;
  const [eventPath, asyncPath] = m[1] === "event" ? [m[2]!, m[4]!] : [m[4]!, m[2]!];
  return { eventPath: eventPath.split("."), asyncPath: asyncPath.split(".") };
}

const LITERAL_EQUALITY =
  /^\s*(?:async\.([A-Za-z_][\w]*(?:\.[A-Za-z_][\w]*)*)\s*==\s*('[^'\\]*'|"[^"\\]*"|-?\d+(?:\.\d+)?|true|false)|('[^'\\]*'|"[^"\\]*"|-?\d+(?:\.\d+)?|true|false)\s*==\s*async\.([A-Za-z_][\w]*(?:\.[A-Za-z_][\w]*)*))\s*$/;

/**
 * The value an incoming event must carry for a wait's expression to possibly hold, as pre-filter
 * text: for `event.<p> == async.<q>` the run's trigger value at p; for `async.<q> == 'literal'`
 * (an id interpolated into `if`, e.g. a provider's request id) the literal. Undefined: no pre-filter.
 */
export function waitMatchValue(expression: string | null | undefined, runEvent: unknown): string | undefined {
  if (!expression) return undefined;
  const equality = simpleEquality(expression);
  if (equality) return scalarText(valueAt(runEvent, equality.eventPath));
  const m = LITERAL_EQUALITY.exec(expression);
  if (!m) return undefined;
  const literal = m[2] ?? m[3]!;
  if (literal.startsWith("'") || literal.startsWith('"')) return literal.slice(1, -1);
  return scalarText(JSON.parse(literal));
}

/** A scalar as the text the pre-filter compares (strings as they are, other scalars as JSON). */
export function scalarText(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return JSON.stringify(value);
  return undefined;
}

export function valueAt(value: unknown, path: string[]): unknown {
  let current = value;
  for (const key of path) {
    if (current === null || typeof current !== "object") return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

/** Every scalar in an event (bounded), as pre-filter texts. */
export function scalarTexts(value: unknown, limit = 256): string[] {
  const out = new Set<string>();
  const walk = (v: unknown, depth: number) => {
    if (out.size >= limit || depth > 6) return;
    const text = scalarText(v);
    if (text !== undefined) out.add(text);
    else if (v && typeof v === "object") for (const child of Object.values(v)) walk(child, depth + 1);
  };
  walk(value, 0);
  return [...out];
}
