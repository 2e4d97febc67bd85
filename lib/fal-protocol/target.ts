import { DomainError } from "@/lib/core/errors";
import { parseQueuePath } from "@/lib/http/model-path";

/**
 * Where a fal-protocol call goes. fal's clients build URLs on three hosts (docs/fal.md):
 * `fal.run/{model}[/stream]` (run, stream), `queue.fal.run/{model}[/requests/{id}/…]` (the queue)
 * and `rest.fal.ai/storage/upload/initiate` (uploads). Through `/api/fal/proxy` the URL arrives in
 * `x-fal-target-url`; under `/fal/run` and `/fal/queue` it is the path itself. Either way it
 * becomes one of these operations, answered by the same handlers (./handlers.ts). Nothing is ever
 * forwarded anywhere: a target is only a name for a gateway operation.
 */
export type FalOperation =
  | { kind: "run" | "stream" | "submit"; modelId: string }
  | { kind: "status" | "status-stream" | "result" | "cancel"; modelId: string; requestId: string }
  | { kind: "upload-initiate" };

export type FalHost = "run" | "queue" | "rest";

/** fal's own hosts: the only targets the proxy accepts. */
const HOSTS: Record<string, FalHost> = { "fal.run": "run", "queue.fal.run": "queue", "rest.fal.ai": "rest" };

export const TARGET_HEADER = "x-fal-target-url";

export type FalTarget = { host: FalHost; segments: string[]; search: string };

const badTarget = (message: string) =>
  new DomainError("invalid_params", `${TARGET_HEADER}: ${message}`, { issues: [{ path: [TARGET_HEADER], message }] });

/**
 * The proxy's target: an `https://` URL on one of fal's hosts (no credentials, no other port), its
 * path split into decoded segments. Anything else is 400 in the envelope: the proxy never fetches
 * a URL, so it can never become an open proxy.
 */
export function parseTarget(raw: string | null): FalTarget {
  if (!raw) throw badTarget("required: the fal URL the client called (set by @fal-ai/client's proxyUrl)");
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw badTarget("not a URL");
  }
  const host = HOSTS[url.hostname.toLowerCase()];
  if (url.protocol !== "https:" || !host || url.port !== "" || url.username !== "" || url.password !== "") {
    throw badTarget("only fal's own hosts are served (https://fal.run, https://queue.fal.run, https://rest.fal.ai)");
  }
  return { host, segments: segmentsOf(url.pathname, badTarget), search: url.search };
}

/** A path's segments, each decoded once; one trailing slash is allowed (fal's clients add it to full-URL ids). */
export function segmentsOf(pathname: string, fail: (message: string) => DomainError): string[] {
  const parts = pathname.replace(/^\//, "").replace(/\/$/, "").split("/");
  let segments: string[];
  try {
    segments = parts.map((s) => decodeURIComponent(s));
  } catch {
    throw fail("the path has a malformed percent-encoding");
  }
  if (segments.some((s) => s === "" || s === "." || s === ".." || s.includes("/"))) throw fail("the path has an empty or relative segment");
  return segments;
}

const methodNotAllowed = (method: string, allowed: string) =>
  new DomainError("method_not_allowed", `${method} is not accepted for this fal URL; use ${allowed}`, {}, { Allow: `${allowed}, OPTIONS` });

const notServed = () => new DomainError("not_found", "This fal URL is not served by the gateway (see docs/fal.md for what is)");

/** A model path needs `owner/app` at least, as fal's do. */
function modelIdOf(segments: string[]): string {
  if (segments.length < 2) throw new DomainError("not_found", "Application not found: fal model ids are owner/app[/path]");
  return segments.join("/");
}

/** The operation a fal URL names (host + path + method): 404 for paths the gateway does not serve, 405 for a wrong method. */
export function operationOf(host: FalHost, segments: string[], method: string): FalOperation {
  const m = method.toUpperCase();
  if (host === "rest") {
    if (segments.join("/") !== "storage/upload/initiate") throw notServed();
    if (m !== "POST") throw methodNotAllowed(m, "POST");
    return { kind: "upload-initiate" };
  }
  if (host === "run") {
    if (m !== "POST") throw methodNotAllowed(m, "POST");
    if (segments.length > 2 && segments[segments.length - 1] === "stream")
      return { kind: "stream", modelId: modelIdOf(segments.slice(0, -1)) };
    return { kind: "run", modelId: modelIdOf(segments) };
  }
  const path = parseQueuePath(segments);
  if (path.kind === "submit") {
    if (m !== "POST") throw methodNotAllowed(m, "POST");
    return { kind: "submit", modelId: modelIdOf(segments) };
  }
  if (path.kind === "progress-stream") throw notServed();
  if (path.kind === "cancel") {
    if (m !== "PUT") throw methodNotAllowed(m, "PUT");
  } else if (m !== "GET" && m !== "HEAD") {
    throw methodNotAllowed(m, "GET");
  }
  return { kind: path.kind, modelId: path.modelId, requestId: path.requestId };
}
