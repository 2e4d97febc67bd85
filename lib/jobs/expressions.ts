import { parse } from "@marcbachmann/cel-js";
import { log } from "@/lib/logger";

/**
 * CEL, the expression language of Inngest triggers (`if`), waits and cancellations
 * (`event` = the run's trigger, `async` = the incoming event), and idempotency/concurrency keys.
 * Compiled once per distinct expression.
 */
type Compiled = ReturnType<typeof parse>;
const cache = new Map<string, Compiled>();

function compile(expression: string): Compiled {
  let compiled = cache.get(expression);
  if (!compiled) {
    compiled = parse(expression);
    cache.set(expression, compiled);
  }
  return compiled;
}

/** Throws if the expression does not parse: used to refuse a bad function at registration. */
export function assertExpression(expression: string): void {
  compile(expression);
}

/**
 * Whether an expression holds. A reference to a missing field is an evaluation error in CEL;
 * Inngest treats that as "does not match", and so do we.
 */
export function matches(expression: string | null | undefined, vars: Record<string, unknown>): boolean {
  if (!expression) return true;
  try {
    return compile(expression)(vars) === true;
  } catch {
    return false;
  }
}

/** The string value of a key expression, or undefined when it cannot be evaluated. */
export function evaluateKey(expression: string, vars: Record<string, unknown>): string | undefined {
  try {
    const value = compile(expression)(vars);
    if (value === null || value === undefined) return undefined;
    return typeof value === "string" ? value : typeof value === "bigint" ? value.toString() : JSON.stringify(value);
  } catch (err) {
    log.warn("job key expression failed", { expression, error: String(err) });
    return undefined;
  }
}
