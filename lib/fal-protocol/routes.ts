import { falOperations as fal } from "@/lib/http/contracts/fal";
import type { Operation } from "@/lib/http/contracts/operation";
import { DomainError } from "@/lib/core/errors";
import { serving, withGateway, withoutOperation, type RouteContext, type RouteHandler } from "@/lib/http/handler";
import { userGenerationLimit } from "@/lib/rate-limit/rules";
import { withFalErrors } from "./errors";
import { perform, type Call } from "./handlers";
import type { FalVia, Located } from "./urls";
import { operationOf, parseTarget, TARGET_HEADER, type FalHost } from "./target";

/**
 * The route handlers of fal's protocol. Each route exports one handler for every method: the
 * operation (and so a wrong method's 405) is decided by the fal URL the request names.
 *
 *   /api/fal/proxy        @fal-ai/server-proxy's protocol: the fal URL in x-fal-target-url
 *   /fal/run/{model}      FAL_RUN_HOST=<gateway>/fal/run        (fal.run: run, stream)
 *   /fal/queue/{model}…   FAL_QUEUE_RUN_HOST=<gateway>/fal/queue (queue.fal.run: the queue API)
 */
type Method = "GET" | "HEAD" | "POST" | "PUT" | "PATCH" | "DELETE";
type Routes = Record<Method | "OPTIONS", RouteHandler>;
const METHODS: Method[] = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"];

/** Every fal operation a key may call: which one a request is, only its fal URL says. */
const keyOperations = [
  fal.falProxyPost,
  fal.falProxyGet,
  fal.falProxyPut,
  fal.falRun,
  fal.falStream,
  fal.falSubmit,
  fal.falStatus,
  fal.falStatusStream,
  fal.falResult,
  fal.falCancel,
] as const;
const GENERATIONS = new Set<Call["op"]["kind"]>(["run", "stream", "submit"]);

/**
 * One route handler speaking fal's protocol. `locate` names the fal URL of the request (it may
 * throw: a bad proxy target is 400 in the envelope). Generations (run, stream, submit) also count
 * against the per-user generation limit; every call counts against the key's limit, as on /run.
 */
function falEndpoint(via: FalVia, locate: (req: Request, context: RouteContext) => Promise<Located>): RouteHandler {
  const calls = new WeakMap<Request, Call>();
  const refusals = new WeakMap<Request, unknown>();
  const callOf = (req: Request) => calls.get(req)!;
  const answer = ({ req, ctx }: { req: Request; ctx: Parameters<typeof perform>[0] }) => perform(ctx, req, callOf(req));
  const generation = withFalErrors(withGateway(keyOperations, answer, { rateLimit: [userGenerationLimit] }));
  const other = withFalErrors(withGateway(keyOperations, answer));
  const refuse = withFalErrors(
    withoutOperation("gateway", ({ req }) => {
      throw refusals.get(req);
    }),
  );
  return async (req, context) => {
    try {
      const target = await locate(req, context);
      const op = operationOf(target.host, target.segments, req.method);
      calls.set(req, { op, query: new URLSearchParams(target.search), via });
      return (GENERATIONS.has(op.kind) ? generation : other)(req, context);
    } catch (err) {
      refusals.set(req, err);
      return refuse(req, context);
    }
  };
}

/**
 * The route's exports: a method with operations at this route carries them (lib/http/routes.test.ts
 * reads them); the others answer through the same handler, which refuses them by the fal URL.
 * OPTIONS lists the methods served, as every route's does.
 */
function allMethods(handler: RouteHandler, served: readonly Operation[]): Routes {
  const methods = METHODS.filter((method) => served.some((op) => op.method === method.toLowerCase()));
  const allow = [...methods, "OPTIONS"].join(", ");
  const options = Object.assign(
    withoutOperation("gateway", () => new Response(null, { status: 204, headers: { Allow: allow } })),
    { allow },
  );
  const routes = Object.fromEntries(
    METHODS.map((method) => {
      const ops = served.filter((op) => op.method === method.toLowerCase());
      const own = (req: Request, context: RouteContext) => handler(req, context);
      return [method, ops.length ? serving(ops as [Operation, ...Operation[]], own) : Object.assign(own, { allow })];
    }),
  );
  return { ...(routes as unknown as Record<Method, RouteHandler>), OPTIONS: options };
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
  const served =
    host === "run" ? [fal.falRun, fal.falStream] : [fal.falSubmit, fal.falStatus, fal.falStatusStream, fal.falResult, fal.falCancel];
  return allMethods(falEndpoint("prefix", locate), served);
}

/** `/api/fal/proxy`: the target in x-fal-target-url (400 in the envelope unless it is a fal URL the gateway serves). */
export function proxyRoutes(): Routes {
  const locate = async (req: Request): Promise<Located> => parseTarget(req.headers.get(TARGET_HEADER));
  return allMethods(falEndpoint("proxy", locate), [fal.falProxyGet, fal.falProxyPost, fal.falProxyPut]);
}
