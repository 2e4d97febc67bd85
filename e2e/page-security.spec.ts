import { readFileSync } from "node:fs";
import { expect, test, type Page, type Response } from "@playwright/test";
import { signIn, userCreate } from "./sign-in";

/**
 * Every page carries a Content Security Policy (a nonce per response for the pages, hashes for
 * /docs), refuses framing and sniffing, and still works under it: the public pages, /docs with
 * Scalar, sign-in through the form and the mailed link, the dashboard, and the playground showing
 * an image, a video and an audio result. Chromium reports every violation, as a
 * `securitypolicyviolation` event and as a console error; none may occur.
 */

type Violations = string[];

/**
 * The one refusal that is expected: zod (bundled in Scalar) probes whether eval is allowed with
 * `new Function("")` inside a try and, refused, parses without compiling. Its exact place in the
 * bundle, so that any other eval (or this one moving in a new version) still fails the test.
 */
const zodEvalProbe = (() => {
  const lines = readFileSync("node_modules/@scalar/api-reference/dist/browser/standalone.js", "utf8").split("\n");
  const probe = 'new Function("")';
  const at = lines.flatMap((line, i) => (line.includes(probe) ? [`/docs/scalar.js:${i + 1}:${line.indexOf(probe) + 1}`] : []));
  expect(at).toHaveLength(1);
  return `script-src blocked eval at ${at[0]}`;
})();

/** Collects the page's policy violations, from every document it loads. */
async function watchPolicy(page: Page): Promise<Violations> {
  const violations: Violations = [];
  await page.exposeFunction("__reportViolation", (v: string) => void violations.push(v));
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (e) => {
      const report = (window as unknown as { __reportViolation: (v: string) => void }).__reportViolation;
      const source = `${new URL(e.sourceFile || e.documentURI).pathname}:${e.lineNumber}:${e.columnNumber}`;
      void report(`${e.effectiveDirective} blocked ${e.blockedURI || "(inline)"} at ${source} (${e.documentURI}) ${e.sample}`.trim());
    });
  });
  page.on("console", (m) => {
    if (/Content Security Policy/i.test(m.text())) violations.push(`console: ${m.text()}`);
  });
  return violations;
}

/** The headers every page response carries. */
function expectPageHeaders(res: Response | null, { docs = false } = {}) {
  expect(res, "a response").not.toBeNull();
  const headers = res!.headers();
  const policy = headers["content-security-policy"] ?? "";
  if (docs) expect(policy).toMatch(/^script-src 'self'( 'sha256-[A-Za-z0-9+/=]+'){2};/);
  else expect(policy).toMatch(/^script-src 'nonce-[A-Za-z0-9+/=]+' 'strict-dynamic';/);
  expect(policy).toContain("frame-ancestors 'none'");
  expect(policy).toContain("object-src 'none'");
  expect(headers["x-frame-options"]).toBe("DENY");
  expect(headers["x-content-type-options"]).toBe("nosniff");
  // The e2e server's APP_URL is http: no HSTS (test/security/page-headers.test.ts covers https).
  expect(headers["strict-transport-security"]).toBeUndefined();
}

/** Opens a page, checks its headers, and waits until it has loaded everything it asked for. */
async function open(page: Page, path: string, options: { docs?: boolean } = {}) {
  const res = await page.goto(path);
  expectPageHeaders(res, options);
  await page.waitForLoadState("load");
  return res!;
}

test("public pages, /docs and sign-in work under their policy, with no violation", async ({ page }) => {
  const violations = await watchPolicy(page);
  for (const path of ["/", "/catalog", "/catalog/fal-ai/flux/schnell", "/status", "/changelog", "/signin"]) await open(page, path);
  const missing = await page.goto("/no-such-page");
  expect(missing!.status()).toBe(404);
  expectPageHeaders(missing);

  await open(page, "/docs", { docs: true });
  await expect(page.getByRole("heading", { name: "Generation Gateway API", level: 1 })).toBeVisible({ timeout: 30_000 });
  // Scalar's client calls the API from the page (connect-src).
  const sidebar = page.getByRole("navigation", { name: /Sidebar/ });
  await sidebar.getByRole("button", { name: /^Models\b/ }).click();
  await sidebar.getByRole("button", { name: /Search the public model catalog/ }).click();
  await expect(page.locator('section[label="Search the public model catalog"]')).toContainText("/models");
  const fetched = await page.evaluate(async () => (await fetch("/models?limit=1")).status);
  expect(fetched).toBe(200);

  // The sign-in form (a server action), the dev mailbox and the link, ending on the dashboard.
  const user = userCreate("--email", `csp-${Date.now()}@example.test`);
  await signIn(page, user.email);
  await page.waitForLoadState("load");
  expect(violations.filter((v) => !v.startsWith(zodEvalProbe))).toEqual([]);
});

test("the dashboard and the playground's image, video and audio results work under the policy", async ({ page }) => {
  const violations = await watchPolicy(page);
  const user = userCreate("--email", `csp-play-${Date.now()}@example.test`, "--credits", "50");
  await signIn(page, user.email);
  for (const path of [
    "/dashboard",
    "/dashboard/keys",
    "/dashboard/activity",
    "/dashboard/usage",
    "/dashboard/billing",
    "/dashboard/profile",
    "/dashboard/sessions",
    "/dashboard/webhooks",
    "/dashboard/integrations",
  ]) {
    await open(page, path);
  }

  // An image: shown inline and loaded from the service's storage.
  await open(page, "/catalog/fal-ai/flux/schnell");
  await page.locator("#field-prompt").fill("a lighthouse at dusk");
  await page.locator("#field-image_size").selectOption("square");
  await page.getByTestId("run-button").click();
  await expect(page.getByTestId("run-status")).toHaveAttribute("data-phase", "completed", { timeout: 30_000 });
  const image = page.getByTestId("result-image").locator("img");
  await expect(image).toHaveJSProperty("complete", true);
  expect(await image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);

  // A video and an audio result, each played from its URL.
  for (const [model, field, kind] of [
    ["fal-ai/ltx-video", "#field-prompt", "video"],
    ["fal-ai/kokoro/american-english", "#field-text", "audio"],
  ] as const) {
    await open(page, `/catalog/${model}`);
    await page.locator(field).fill("a short test");
    await page.getByTestId("run-button").click();
    await expect(page.getByTestId("run-status")).toHaveAttribute("data-phase", "completed", { timeout: 30_000 });
    const media = page.getByTestId(`result-${kind}`).locator(kind);
    await expect(media).toHaveCount(1);
    // The element loaded its source's metadata (a source the policy refused would stay empty).
    await expect.poll(() => media.evaluate((el: HTMLMediaElement) => el.readyState)).toBeGreaterThanOrEqual(1);
  }

  // The run's detail page shows the stored results again.
  await open(page, "/dashboard/activity");
  expect(violations).toEqual([]);
});

test("API answers keep working, with nosniff", async ({ request }) => {
  for (const path of ["/health", "/models?limit=1", "/openapi.json", "/changelog.json"]) {
    const res = await request.get(path);
    expect(res.status(), path).toBe(200);
    expect(res.headers()["x-content-type-options"], path).toBe("nosniff");
    expect(res.headers()["content-type"], path).toContain("json");
    await res.json();
  }
});
