import type { z } from "zod";
import { DomainError, type ErrorCode, type Issue } from "@/lib/core/errors";

/**
 * Validation in the domain's words: a zod failure becomes `invalid_body` / `invalid_query` /
 * `invalid_params` with the spec's `issues`, wherever the value came from (a request, a webhook, a
 * tool call).
 */

/** zod issues → the spec's `[{path: string[], message}]`. */
export function toIssues(error: z.ZodError): Issue[] {
  return error.issues.map((i) => ({ path: i.path.map(String), message: i.message }));
}

export function validationError(code: Extract<ErrorCode, `invalid_${string}`>, error: z.ZodError): DomainError {
  const issues = toIssues(error);
  const first = issues[0];
  const where = first && first.path.length ? `${first.path.join(".")}: ` : "";
  return new DomainError(code, `${where}${first?.message ?? "Invalid input"}`, { issues });
}

/** Parses `value` with `schema`, or throws the validation error under `code`. */
export function parseWith<T extends z.ZodType>(
  schema: T,
  value: unknown,
  code: "invalid_body" | "invalid_query" | "invalid_params",
): z.output<T> {
  const result = schema.safeParse(value);
  if (!result.success) throw validationError(code, result.error);
  return result.data;
}
