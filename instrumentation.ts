import type { Instrumentation } from "next";

/**
 * Runs once when the server process starts (Node.js runtime only), before requests are handled:
 * stamps every request with its socket's address (lib/net/socket-address.ts: route handlers
 * see no socket), answers methods Next cannot route (lib/http/unknown-method.ts), validates
 * configuration and opens and migrates the database, so a bad setting stops start-up and the
 * first request does not pay for migrations. The simulators (the local generation and payment
 * providers, which lib/ does not import) are registered first, so start-up can resume their work.
 */
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  await (await import("@/lib/net/socket-address")).installSocketAddressStamp();
  // TRACE, PROPFIND, CONNECT, …: 405 in the envelope before Next answers a bare 500/400.
  await (await import("@/lib/http/unknown-method")).installUnknownMethodGuard();
  (await import("@/simulators/register")).registerSimulators();
  const { startServer } = await import("@/lib/server/start");
  await startServer();
}

/**
 * A page, server action or route that failed outside our wrappers (withGateway and withSkill
 * answer their own errors): one error line with the request id and the route's template, never
 * the path (a sign-in link's query carries its token) or a header.
 */
export const onRequestError: Instrumentation.onRequestError = async (error, request, context) => {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { log } = await import("@/lib/core/logger");
  const requestId = request.headers["x-request-id"];
  log.error("request failed", {
    requestId: typeof requestId === "string" ? requestId : null,
    method: request.method,
    route: context.routePath,
    routeType: context.routeType,
    error,
  });
};
