import { json } from "./json";
import { log } from "@/lib/core/logger";
import { DomainError, isDomainError } from "@/lib/core/errors";
import { skillCodeOf, httpStatusOf } from "./errors";

export type Surface = "gateway" | "skill";

/**
 * Turns anything thrown into an DomainError. Unknown errors become internal_error: logged with the
 * request id, with nothing of their message or stack in the response.
 */
export function normalizeError(err: unknown, requestId: string): DomainError {
  if (isDomainError(err)) return err;
  log.error("unhandled error", { requestId, error: err });
  return new DomainError("internal_error", `Unexpected error. Quote X-Request-ID ${requestId} to support.`);
}

export function renderError(surface: Surface, err: DomainError, requestId: string): Response {
  const body =
    surface === "skill"
      ? {
          error: err.message,
          code: skillCodeOf[err.code],
          details: { reason: err.code, ...err.extra },
        }
      : { success: false, error: err.code, message: err.message, ...err.extra };
  return json(body, {
    status: httpStatusOf(err),
    headers: { ...err.headers, "X-Request-ID": requestId },
  });
}
