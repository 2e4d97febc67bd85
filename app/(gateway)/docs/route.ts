import { LOCALE_COOKIE, pickLocale } from "@/lib/core/locales";
import { systemOperations } from "@/lib/http/contracts/system";
import { serving } from "@/lib/http/handler";
import { docsContentSecurityPolicy, docsPage } from "./page-html";

// GET /docs – the API reference, rendered from /openapi.json by Scalar. Fully offline: Scalar's
// bundle is served from node_modules (/docs/scalar.js), no web fonts, no request proxy, no
// telemetry; see page-html.ts for the configuration and the accessibility fixes. The product's
// header above it speaks the visitor's language, as the other pages do (cookie, Accept-Language).
export const GET = serving(
  systemOperations.getDocs,
  async (req: Request) =>
    new Response(docsPage(localeOf(req)), {
      headers: {
        "Content-Type": "text/html; charset=utf-8",
        "Cache-Control": "private, max-age=300",
        Vary: "Cookie, Accept-Language",
        // Its own policy: proxy.ts sets the pages' other security headers, and no policy here.
        "Content-Security-Policy": docsContentSecurityPolicy(),
      },
    }),
);

const cookiePattern = new RegExp(`(?:^|;\\s*)${LOCALE_COOKIE}=([^;]*)`);

function localeOf(req: Request) {
  const cookie = cookiePattern.exec(req.headers.get("cookie") ?? "")?.[1];
  return pickLocale({ cookie, acceptLanguage: req.headers.get("accept-language") });
}
