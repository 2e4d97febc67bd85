import { notFound } from "./errors";
import { withGateway, withSkill } from "./handler";

/**
 * Catch-alls under the API prefixes (`/me/[...unknown]`, `/api/v1/[...unknown]`, …) re-export
 * these, so a mistyped API path answers the JSON envelope with X-Request-ID instead of the HTML
 * 404 page. (The proxy skips API paths: it would cost every API request a second pass.)
 */
function handlers(wrap: typeof withGateway) {
  const handler = wrap({ auth: "none" }, () => {
    throw notFound("Endpoint");
  });
  return { GET: handler, POST: handler, PUT: handler, PATCH: handler, DELETE: handler };
}

export const gatewayUnknownRoute = handlers(withGateway);
export const skillUnknownRoute = handlers(withSkill);
