import type { Principal } from "@/lib/auth/principal";
import { env } from "@/lib/core/env";
import { log, logEnabled } from "@/lib/core/logger";
import { requestIdOf } from "./request-id";
import { metricsEnabled, recordRequest } from "@/lib/observability/metrics";
import { routeTemplate, type RouteParams } from "./route-template";

export type AnsweredRequest = {
  req: Request;
  requestId: string;
  status: number;
  /** `performance.now()` when the handler started. */
  startedAt: number;
  /** The route template; else it is rebuilt from the params and `pathname` (default: the URL's). */
  route?: string;
  pathname?: string;
  params?: RouteParams;
  principal?: Principal | null;
  /** Probes (/health, /metrics) log at debug, so a load balancer's polling does not fill the log. */
  quiet?: boolean;
};

/**
 * Every API request ends here once (withGateway/withSkill, and `observed` for the few routes
 * without them): its metrics, and one JSON log line at info when REQUEST_LOG is on:
 *
 *   {"level":"info","time":"…","msg":"request","requestId":"…","method":"POST","route":"/run/{modelId}",
 *    "status":200,"durationMs":5.21,"userId":"…","apiKeyId":"…"}
 *
 * The line names the caller by ids only: never the key, a header, the query string or the body.
 * Both are skipped with nothing built when off. It never throws: it must not turn an answer into
 * an error.
 */
export function observeRequest(r: AnsweredRequest): void {
  try {
    const metricsOn = metricsEnabled();
    const logOn = env().REQUEST_LOG && logEnabled(r.quiet ? "debug" : "info");
    if (!metricsOn && !logOn) return;
    const ms = performance.now() - r.startedAt;
    const route = r.route ?? routeTemplate(r.pathname ?? new URL(r.req.url).pathname, r.params);
    if (metricsOn) recordRequest(route, r.req.method, r.status, ms / 1000);
    if (!logOn) return;
    (r.quiet ? log.debug : log.info)("request", {
      requestId: r.requestId,
      method: r.req.method,
      route,
      status: r.status,
      durationMs: Math.round(ms * 100) / 100,
      userId: r.principal?.userId ?? null,
      apiKeyId: r.principal?.apiKeyId ?? null,
    });
  } catch (error) {
    log.warn("request could not be observed", { error });
  }
}

type Handler<C> = (req: Request, context: C) => Promise<Response>;

/**
 * For the routes that are not wrapped in withGateway/withSkill (/health, /metrics, /files, the
 * Inngest endpoint): the same metrics and log line, under a fixed route template.
 */
export function observed<C>(route: string, handler: Handler<C>, options: { quiet?: boolean } = {}): Handler<C> {
  return async (req, context) => {
    const startedAt = performance.now();
    let res: Response;
    try {
      res = await handler(req, context);
    } catch (err) {
      observeRequest({ req, requestId: requestIdOf(req), status: 500, startedAt, route, quiet: options.quiet });
      throw err;
    }
    const requestId = res.headers.get("x-request-id") ?? requestIdOf(req);
    observeRequest({ req, requestId, status: res.status, startedAt, route, quiet: options.quiet });
    return res;
  };
}
