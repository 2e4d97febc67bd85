import { createHash } from "node:crypto";
import type { Locale } from "@/lib/core/locales";
import { contentSecurityPolicy } from "@/lib/http/security-headers";
import { messagesFor } from "@/lib/i18n/messages";

/**
 * The HTML of /docs: Scalar's API reference over /openapi.json, with nothing fetched from outside
 * the gateway (the "6 failed requests offline" were Scalar's web fonts):
 * - the browser bundle comes from node_modules (/docs/scalar.js);
 * - `withDefaultFonts: false` (system fonts instead of fonts.scalar.com);
 * - no `proxyUrl` (the test-request client calls the gateway itself, same origin), no telemetry,
 *   no Scalar agent, no developer toolbar.
 * The page is written here rather than by @scalar/nextjs-api-reference so it can declare its
 * language (`<html lang="en">`), link the site's icon, carry the accessibility fixes below, put
 * the product's header above the reference and load the reference after the first paint.
 */
export const scalarConfiguration = {
  url: "/openapi.json",
  theme: "default",
  withDefaultFonts: false,
  telemetry: false,
  showDeveloperTools: "never",
  agent: { disabled: true },
  // Scalar's list of schemas would be a second "Models" in the sidebar, beside the catalog's
  // operations; each schema is shown where an operation uses it.
  hideModels: true,
} as const;

/**
 * System fonts in place of the web fonts Scalar would download, and text colours that reach
 * WCAG AA (4.5:1) on Scalar's backgrounds (its greys and method colours are 3.2–4.4:1), light and dark.
 * The introduction's "Client Libraries" picker is hidden: its tablist holds a plain "More" button
 * besides its tabs (axe aria-required-children, critical); every operation's example keeps its
 * own language picker.
 */
export const docsCss = `
:root {
  --scalar-font: system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
  --scalar-font-code: ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace;
}
.light-mode {
  --scalar-color-2: #595959 !important;
  --scalar-color-3: #666666 !important;
  --scalar-color-accent: #0062cc !important;
  --scalar-color-blue: #0066a8 !important;
  --scalar-color-green: #17743a !important;
  --scalar-color-orange: #a84d00 !important;
  --scalar-color-red: #b42a43 !important;
  --scalar-color-yellow: #7d6000 !important;
  --scalar-color-purple: #7b3fc4 !important;
}
.dark-mode {
  --scalar-color-3: #8f8f8f !important;
  --scalar-color-red: #ff6b6b !important;
}
.scalar-reference-intro-clients { display: none !important; }
`;

/**
 * The public pages' header (components/site/site-header.tsx) in plain HTML and CSS, so the
 * reference is not a dead end: the same marks, links and widths (max-w-7xl, px-4, h-14), written
 * without the app's stylesheet, which /docs does not load. Its links are in the visitor's language.
 */
export const headerCss = `
body { margin: 0; }
.gw-header { border-bottom: 1px solid #e2e8f0; background: #fff; font-family: ui-sans-serif, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; }
.gw-bar { box-sizing: border-box; max-width: 80rem; margin: 0 auto; padding: 0 1rem; height: 3.5rem; display: flex; align-items: center; justify-content: space-between; gap: .75rem; }
.gw-logo { display: flex; align-items: center; gap: .5rem; color: #0f172a; font-weight: 600; text-decoration: none; font-size: 1rem; }
.gw-mark { display: inline-block; width: 1.5rem; height: 1.5rem; border-radius: .375rem; background: linear-gradient(to bottom right, #4f6ef7, #d946ef); }
.gw-nav { display: flex; align-items: center; gap: 1.25rem; font-size: .875rem; }
.gw-nav a { color: #475569; text-decoration: none; white-space: nowrap; }
.gw-nav a:hover, .gw-nav a[aria-current="page"] { color: #0f172a; }
.gw-nav a[aria-current="page"] { font-weight: 600; }
.gw-loading { font-family: ui-sans-serif, system-ui, sans-serif; color: #475569; max-width: 80rem; margin: 0 auto; padding: 2rem 1rem; font-size: .875rem; }
@media (max-width: 639px) { .gw-name { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; } .gw-nav { gap: .75rem; } }
`;

const escapeHtml = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

function headerHtml(locale: Locale): string {
  const t = messagesFor(locale).site;
  const link = (href: string, label: string, current = false) =>
    `<a href="${href}"${current ? ' aria-current="page"' : ""}>${escapeHtml(label)}</a>`;
  return `<header class="gw-header" lang="${locale}">
      <div class="gw-bar">
        <a href="/" class="gw-logo"><span class="gw-mark" aria-hidden="true"></span><span class="gw-name">Generation Gateway</span></a>
        <nav class="gw-nav" aria-label="${escapeHtml(t.siteNav)}">
          ${link("/catalog", t.models)}
          ${link("/docs", t.docs, true)}
          ${link("/dashboard", t.dashboard)}
        </nav>
      </div>
    </header>`;
}

/**
 * ARIA fixes applied to what Scalar renders (its components cannot be configured out of them),
 * re-applied whenever it re-renders:
 * - sidebar buttons carry `aria-selected`, which a button may not: the selected one gets
 *   `aria-current` instead;
 * - the search button has `role="search"` (a landmark, so its text does not name it): dropped;
 * - icon-only copy buttons (their "Copy" is aria-hidden) get a name;
 * - "Show More" buttons are labelled "Show all … endpoints", which does not contain their
 *   visible text: the label is made to start with it;
 * - scrollable endpoint lists without focusable content become focusable (keyboard scrolling).
 */
export const ariaFixes = `(() => {
  const fix = () => {
    for (const el of document.querySelectorAll("[aria-selected]:not([role])")) {
      if (el.getAttribute("aria-selected") === "true") el.setAttribute("aria-current", "true");
      else el.removeAttribute("aria-current");
      el.removeAttribute("aria-selected");
    }
    for (const el of document.querySelectorAll('button[role="search"]')) el.removeAttribute("role");
    for (const el of document.querySelectorAll("button.scalar-code-copy:not([aria-label])")) el.setAttribute("aria-label", "Copy");
    for (const el of document.querySelectorAll("button.show-more[aria-label]")) {
      const text = el.textContent.replace(/\\s+/g, " ").trim();
      const label = el.getAttribute("aria-label");
      if (text && !label.toLowerCase().includes(text.toLowerCase())) el.setAttribute("aria-label", text + ": " + label);
    }
    for (const el of document.querySelectorAll("ul.endpoints:not([tabindex])")) el.setAttribute("tabindex", "0");
  };
  let queued = false;
  new MutationObserver(() => {
    if (queued) return;
    queued = true;
    requestAnimationFrame(() => {
      queued = false;
      fix();
    });
  }).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ["aria-selected", "role", "aria-label"] });
  fix();
})();`;

/** JSON inside a <script>: `<` escaped so no string can close the element. */
const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, "\\u003c");

/**
 * The page's two inline scripts: Scalar's start with its configuration, and the ARIA fixes. The
 * bundle (~1 MB) is preloaded but run only after the first frame, so the header and the loading
 * line paint first instead of a blank page waiting on it.
 */
const inlineScripts = () => [
  `(() => {
  const start = () => Scalar.createApiReference("#app", ${scriptJson({ ...scalarConfiguration, customCss: docsCss })});
  requestAnimationFrame(() => setTimeout(() => {
    const bundle = document.createElement("script");
    bundle.src = "/docs/scalar.js";
    bundle.onload = start;
    document.body.appendChild(bundle);
  }, 0));
})();`,
  ariaFixes,
];

/**
 * The page's policy (lib/http/security-headers.ts): its own bundle and exactly its inline scripts,
 * by hash, so the HTML stays the same for everyone (and cacheable).
 */
export function docsContentSecurityPolicy(): string {
  const hashes = inlineScripts().map((script) => `'sha256-${createHash("sha256").update(script).digest("base64")}'`);
  return contentSecurityPolicy(["'self'", ...hashes]);
}

const pages = new Map<Locale, string>();

/** The page, per language of its header (the reference itself is in English). */
export function docsPage(locale: Locale): string {
  const [start, fixes] = inlineScripts();
  let html = pages.get(locale);
  if (html === undefined) {
    html = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Generation Gateway API</title>
    <link rel="icon" href="/icon.svg" type="image/svg+xml" />
    <link rel="preload" href="/docs/scalar.js" as="script" />
    <style>${headerCss}</style>
  </head>
  <body>
    ${headerHtml(locale)}
    <div id="app"><p class="gw-loading" lang="${locale}">${escapeHtml(messagesFor(locale).site.docsLoading)}</p></div>
    <script>${start}</script>
    <script>${fixes}</script>
  </body>
</html>
`;
    pages.set(locale, html);
  }
  return html;
}
