import { systemOperations } from "@/lib/http/contracts/system";
import { serving } from "@/lib/http/handler";
import { docsContentSecurityPolicy, docsPage } from "./page-html";

// GET /docs – the API reference, rendered from /openapi.json by Scalar. Fully offline: Scalar's
// bundle is served from node_modules (/docs/scalar.js), no web fonts, no request proxy, no
// telemetry; see page-html.ts for the configuration and the accessibility fixes.
export const GET = serving(
  systemOperations.getDocs,
  async () =>
    new Response(docsPage(), {
      headers: {
        "Content-Type": "text/html; charset=utf-8",
        "Cache-Control": "public, max-age=300",
        // Its own policy: proxy.ts sets the pages' other security headers, and no policy here.
        "Content-Security-Policy": docsContentSecurityPolicy(),
      },
    }),
);
