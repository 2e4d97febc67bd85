import { json } from "@/lib/http/json";
import { inngestHandler } from "@/inngest/serve-handler";
import { inngest } from "@/lib/jobs/client";
import { inngestOperations } from "@/lib/http/contracts/inngest";
import { invalidJson } from "@/lib/core/errors";
import { serving } from "@/lib/http/handler";
import { normalizeError, renderError } from "@/lib/http/render";
import { readBodyBytes, UNVERIFIED_BODY_MAX_BYTES } from "@/lib/http/request";
import { requestIdOf } from "@/lib/http/request-id";
import { otherMethodsOf } from "@/lib/http/unknown-route";

// The Inngest SDK endpoint: an Inngest server (or the embedded executor, in-process) calls the
// app's functions here, every call signed with X-Inngest-Signature; unsigned calls get 401, and a
// body is read only up to what the protocol sends (413 payload_too_large past it).
export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Method = (req: Request, ctx?: unknown) => Promise<Response>;

/**
 * The largest call an Inngest server makes: its HTTP driver keeps a request to the SDK within
 * 4 MiB (`MaxSDKRequestBodySize`, inngest/inngest pkg/consts); a run whose state is larger is
 * sent without it (`ctx.use_api`), and the SDK fetches the state from the server's API. The cap
 * leaves 1 MiB over that for the JSON's canonical re-encoding. Our own functions send ids and
 * counts (a few kilobytes); the embedded executor calls the handler in-process, not this route.
 */
const CALL_MAX_BYTES = 5 * 1024 * 1024;
/** A sync (PUT) carries `{url}` and little else. */
const SYNC_MAX_BYTES = UNVERIFIED_BODY_MAX_BYTES;
/** The SDK's own window for a signature's timestamp (RequestSignature.hasExpired). */
const SIGNATURE_MAX_AGE_MS = 5 * 60 * 1000;

/**
 * What can be refused before the body is read: in cloud mode (always, unless INNGEST_DEV) the SDK
 * runs nothing without `X-Inngest-Signature: t=<unix s>&s=<hex>` made within 5 minutes, so a call
 * without one gets the SDK's own 401 unread. (The HMAC covers the canonical JSON, so checking it
 * needs the body: that is left to the SDK.)
 */
function signedOrFresh(req: Request): boolean {
  if (req.method !== "POST" || inngest.mode !== "cloud") return true;
  const header = req.headers.get("x-inngest-signature");
  const signature = new URLSearchParams(header ?? "");
  const at = Number.parseInt(signature.get("t") ?? "", 10);
  return !!header && !!signature.get("s") && Number.isFinite(at) && Math.abs(Date.now() - at * 1000) <= SIGNATURE_MAX_AGE_MS;
}

/** The SDK's answer to an unsigned call (`unauthorizedResponse`), so both refusals read alike. */
const sdkUnauthorized = () => json({ message: "Unauthorized" }, { status: 401 });

/** The request with its body read through the one capped reader (413 past the cap, unkept). */
async function withCappedBody(req: Request): Promise<Request> {
  if (req.method !== "POST" && req.method !== "PUT") return req;
  const bytes = await readBodyBytes(req, req.method === "POST" ? CALL_MAX_BYTES : SYNC_MAX_BYTES);
  return new Request(req.url, { method: req.method, headers: req.headers, body: bytes.byteLength ? bytes : undefined });
}

/**
 * proxy.ts skips this path, so the request id is added here, as on every other response; what
 * the SDK throws is answered in the error envelope (it parses the body before checking the
 * signature, so malformed JSON from anyone would otherwise be a bare 500). The body reaches the
 * SDK only through the capped reader, after the checks its headers allow.
 */
function withRequestId(handler: (req: never, ctx: unknown) => Promise<Response>): Method {
  return async (req, ctx) => {
    const requestId = requestIdOf(req);
    let res: Response;
    try {
      res = signedOrFresh(req) ? await handler((await withCappedBody(req)) as never, ctx) : sdkUnauthorized();
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
export const GET = serving(inngestOperations.inngestIntrospect, withRequestId(inngestHandler.GET));
// POST /api/inngest – run a function step (signed)
export const POST = serving(inngestOperations.inngestCall, withRequestId(inngestHandler.POST));
// PUT /api/inngest – sync the app's functions with an Inngest server
export const PUT = serving(inngestOperations.inngestSync, withRequestId(inngestHandler.PUT));

// Any other method – 405 method_not_allowed with Allow; OPTIONS – 204 with Allow
export const { PATCH, DELETE, OPTIONS } = otherMethodsOf({ GET, POST, PUT });
