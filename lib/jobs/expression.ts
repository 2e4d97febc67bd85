/**
 * The few expressions the embedded executor evaluates, without CEL: an equality of two operands,
 * each a path into `event` (the run's trigger) / `async` (an incoming event) or a quoted string
 * literal, and a concurrency key that is a path into `event`. Anything else is refused where it
 * is declared (registry.ts) or reported (outcome.ts), never evaluated loosely.
 */

type Operand = { path: string[] } | { literal: string };
export type Equality = { left: Operand; right: Operand };

const PATH = String.raw`(?:event|async)(?:\.[A-Za-z_]\w*)+`;
const LITERAL = String.raw`'[^'\\]*'|"[^"\\]*"`;
const EQUALITY = new RegExp(String.raw`^\s*(${PATH}|${LITERAL})\s*==\s*(${PATH}|${LITERAL})\s*$`);
const KEY = new RegExp(String.raw`^\s*(event(?:\.[A-Za-z_]\w*)+)\s*$`);

const operand = (text: string): Operand => (/^['"]/.test(text) ? { literal: text.slice(1, -1) } : { path: text.split(".") });
const root = (o: Operand) => ("path" in o ? o.path[0] : "literal");

/** `a == b` with operands as above, or undefined for any other expression. */
export function parseEquality(expression: string): Equality | undefined {
  const m = EQUALITY.exec(expression);
  return m ? { left: operand(m[1]!), right: operand(m[2]!) } : undefined;
}

/** A trigger's `if` (what `onFailure` compiles to): `event.<path> == '<literal>'`. */
export function parseTriggerIf(expression: string): Equality | undefined {
  const eq = parseEquality(expression);
  const roots = eq && [root(eq.left), root(eq.right)].sort().join();
  return roots === "event,literal" ? eq : undefined;
}

/** A wait's `if`: `async.<path> == "<literal>"`, or `event.<path> == async.<path>` (what `match` compiles to). */
export function parseWaitIf(expression: string): Equality | undefined {
  const eq = parseEquality(expression);
  const roots = eq && [root(eq.left), root(eq.right)].sort().join();
  return roots === "async,literal" || roots === "async,event" ? eq : undefined;
}

/** A concurrency key: `event.<path>`; returns the path. */
export function parseKey(expression: string): string[] | undefined {
  const m = KEY.exec(expression);
  return m ? m[1]!.split(".") : undefined;
}

export function valueAt(value: unknown, path: string[]): unknown {
  let current = value;
  for (const key of path) {
    if (current === null || typeof current !== "object") return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

const resolve = (o: Operand, vars: Record<string, unknown>) => ("literal" in o ? o.literal : valueAt(vars, o.path));
const isScalar = (v: unknown) => typeof v === "string" || typeof v === "number" || typeof v === "boolean";

/** Whether the equality holds; a missing field or a non-scalar does not match (as in Inngest). */
export function holds(eq: Equality | undefined, vars: Record<string, unknown>): boolean {
  if (!eq) return true;
  const [a, b] = [resolve(eq.left, vars), resolve(eq.right, vars)];
  return isScalar(a) && a === b;
}

/** A scalar as the text the wait pre-filter compares (strings as they are, other scalars as JSON). */
export function scalarText(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return JSON.stringify(value);
  return undefined;
}

/**
 * The value an incoming event must carry for a wait's `if` to possibly hold, so an event only
 * loads the waits it could satisfy: the literal, or the run's trigger value the `if` names.
 */
export function waitMatchValue(eq: Equality, runEvent: unknown): string | undefined {
  const other = "path" in eq.left && eq.left.path[0] === "async" ? eq.right : eq.left;
  return scalarText(resolve(other, { event: runEvent }));
}

/** A scalar as typed text (JSON): equal texts mean `holds`' strict equality, so 5 and "5" differ. */
const typedText = (v: unknown) => (isScalar(v) && (typeof v !== "number" || Number.isFinite(v)) ? JSON.stringify(v) : undefined);

/** The async (incoming event's) operand of a wait-form equality, and the other one. */
const sides = (eq: Equality) => ("path" in eq.left && eq.left.path[0] === "async" ? [eq.left, eq.right] : [eq.right, eq.left]);

/**
 * For a wait-form `if` (parseWaitIf) decided by the database alone (cancelOn): the run's side as
 * typed text (its trigger's value, or the literal), recorded when the run starts; undefined when
 * the trigger lacks it (then no event can satisfy it).
 */
export function runSideText(eq: Equality, runEvent: unknown): string | undefined {
  return typedText(resolve(sides(eq)[1]!, { event: runEvent }));
}

/** The incoming event's side as typed text: a run whose recorded side equals it is matched (`holds`). */
export function incomingSideText(eq: Equality, incoming: unknown): string | undefined {
  return typedText(resolve(sides(eq)[0]!, { async: incoming }));
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
