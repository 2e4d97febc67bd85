import { inngestHandler } from "@/inngest/handler";
import { invalidJson } from "@/lib/http/errors";
import { normalizeError, renderError } from "@/lib/http/render";
import { requestIdOf } from "@/lib/http/request-id";
import { gatewayOtherMethods } from "@/lib/http/unknown-route";

// The Inngest SDK endpoint: an Inngest server (or the embedded executor, in-process) calls the
// app's functions here, every call signed with X-Inngest-Signature; unsigned calls get 401.
export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Method = (req: Request, ctx?: unknown) => Promise<Response>;

/**
 * proxy.ts skips this path, so the request id is added here, as on every other response; what
 * the SDK throws is answered in the error envelope (it parses the body before checking the
 * signature, so malformed JSON from anyone would otherwise be a bare 500).
 */
function withRequestId(handler: (req: never, ctx: unknown) => Promise<Response>): Method {
  return async (req, ctx) => {
    const requestId = requestIdOf(req);
    let res: Response;
    try {
      res = await handler(req as never, ctx);
    } catch (err) {
      const error = err instanceof SyntaxError ? invalidJson() : normalizeError(err, requestId);
      return renderError("gateway", error, requestId);
    }
    const out = new Response(res.body, res);
    out.headers.set("X-Request-ID", requestId);
    return out;
  };
}

// GET /api/inngest – introspection (signed in cloud mode)
export const GET = withRequestId(inngestHandler.GET);
// POST /api/inngest – run a function step (signed)
export const POST = withRequestId(inngestHandler.POST);
// PUT /api/inngest – sync the app's functions with an Inngest server
export const PUT = withRequestId(inngestHandler.PUT);

// Any other method – 405 method_not_allowed with Allow; OPTIONS – 204 with Allow
export const { PATCH, DELETE, OPTIONS } = gatewayOtherMethods("GET", "POST", "PUT");
