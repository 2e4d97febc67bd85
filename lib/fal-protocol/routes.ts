import { DomainError } from "@/lib/errors";
import { withGateway, type RouteContext, type RouteHandler } from "@/lib/http/handler";
import { falEndpoint, type Located } from "./handlers";
import { parseTarget, TARGET_HEADER, type FalHost } from "./target";

/**
 * The route handlers of fal's protocol. Each route exports one handler for every method: the
 * operation (and so a wrong method's 405) is decided by the fal URL the request names.
 *
 *   /api/fal/proxy        @fal-ai/server-proxy's protocol: the fal URL in x-fal-target-url
 *   /fal/run/{model}      FAL_RUN_HOST=<gateway>/fal/run        (fal.run: run, stream)
 *   /fal/queue/{model}…   FAL_QUEUE_RUN_HOST=<gateway>/fal/queue (queue.fal.run: the queue API)
 */
type Routes = {
  GET: RouteHandler;
  HEAD: RouteHandler;
  POST: RouteHandler;
  PUT: RouteHandler;
  PATCH: RouteHandler;
  DELETE: RouteHandler;
  OPTIONS: RouteHandler;
};

function allMethods(handler: RouteHandler, allow: string): Routes {
  const options = withGateway({ auth: "none" }, () => new Response(null, { status: 204, headers: { Allow: allow } }));
  return { GET: handler, HEAD: handler, POST: handler, PUT: handler, PATCH: handler, DELETE: handler, OPTIONS: options };
}

const badPath = (message: string) =>
  new DomainError("invalid_params", `Invalid fal path: ${message}`, { issues: [{ path: ["path"], message }] });

/** `/fal/run/[...path]` and `/fal/queue/[...path]`: the path after the prefix is fal's. */
export function prefixRoutes(host: Extract<FalHost, "run" | "queue">): Routes {
  const locate = async (req: Request, context: RouteContext): Promise<Located> => {
    const url = new URL(req.url);
    const params = await context.params;
    const raw = params.path;
    const segments = Array.isArray(raw) ? raw : raw ? [raw] : [];
    if (segments.length === 0 || segments.some((s) => s === "" || s === "." || s === ".." || s.includes("/")))
      throw badPath("expected a fal model id such as fal-ai/flux/dev");
    return { host, segments, search: url.search };
  };
  return allMethods(falEndpoint("prefix", locate), host === "run" ? "POST, OPTIONS" : "GET, POST, PUT, OPTIONS");
}

/** `/api/fal/proxy`: the target in x-fal-target-url (400 in the envelope unless it is a fal URL the gateway serves). */
export function proxyRoutes(): Routes {
  const locate = async (req: Request): Promise<Located> => parseTarget(req.headers.get(TARGET_HEADER));
  return allMethods(falEndpoint("proxy", locate), "GET, POST, PUT, OPTIONS");
}
