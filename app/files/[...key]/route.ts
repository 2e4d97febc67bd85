import { assetOperations } from "@/lib/http/contracts/assets";
import { serving } from "@/lib/http/handler";
import { normalizeError, renderError } from "@/lib/http/render";
import { requestIdOf } from "@/lib/http/request-id";
import { currentStorage } from "@/lib/storage";
import { serveObject } from "@/lib/http/serve-object";
import { otherMethodsOf } from "@/lib/http/unknown-route";
import { observed } from "@/lib/http/observe";

type Context = { params: Promise<{ key?: string[] }> };

// Not wrapped in withGateway: serving a file needs no auth and no database (a deleted asset's
// object is gone, so its URL is 404 by itself), and the proxy skips this path for throughput.
async function handle(req: Request, context: Context): Promise<Response> {
  const requestId = requestIdOf(req);
  try {
    const { key = [] } = await context.params;
    return await serveObject(req, key.join("/"), currentStorage(), requestId);
  } catch (err) {
    return renderError("gateway", normalizeError(err, requestId), requestId);
  }
}

// GET /files/{key} – a stored file (local storage), with ranges and long-lived caching
export const GET = serving(assetOperations.getFile, observed("/files/{key}", handle));
// HEAD /files/{key} – the same headers without the body
export const HEAD = GET;

// Any other method – 405 method_not_allowed with Allow; OPTIONS – 204 with Allow
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethodsOf({ GET, HEAD });
