/**
 * Whether an error only says the client went away: reading the body failed with Node's
 * `aborted` (ECONNRESET from the incoming request, when a load tool or a browser closes the
 * connection), or the request's own signal fired an AbortError. A database or provider
 * connection reset ("read ECONNRESET") is NOT this: it stays a server error.
 */
export function isClientAbort(err: unknown, req: Request): boolean {
  if (!(err instanceof Error)) return false;
  if (err.message === "aborted") return true;
  return err.name === "AbortError" && req.signal?.aborted === true;
}
