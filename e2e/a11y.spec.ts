import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { withAppDb } from "./catalog-db";
import { keepPageShot } from "./page-shots";

/** Serious and critical axe findings on the page as it is now (WCAG 2.x A and AA rules). */
async function seriousFindings(page: Page) {
  const result = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  return result.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map(
      (v) =>
        `${v.id}: ${v.nodes
          .map((n) => n.target.join(" "))
          .slice(0, 3)
          .join(", ")}`,
    );
}

async function signedInAdmin(page: Page, baseURL: string) {
  const token = await withAppDb(async (sql) => {
    const id = crypto.randomUUID();
    const session = crypto.randomUUID();
    await sql`insert into users (id, email, name, role) values (${id}, ${`a11y-${id}@example.test`}, 'A11y', 'admin')`;
    await sql`insert into sessions (session_token, id, user_id, expires) values (${session}, ${crypto.randomUUID()}, ${id}, now() + interval '1 day')`;
    return session;
  });
  await page.context().addCookies([{ name: "authjs.session-token", value: token, url: baseURL }]);
}

const VIEWPORTS = [
  { width: 1366, height: 900 },
  { width: 390, height: 844 },
];

const PATHS = [
  "/",
  "/catalog",
  "/catalog/fal-ai/flux/dev",
  "/signin?callbackUrl=%2F",
  "/changelog",
  "/status",
  "/dev/mailbox",
  "/dashboard",
  "/dashboard/keys",
  "/dashboard/usage",
  "/dashboard/activity",
  "/dashboard/billing",
  "/dashboard/profile",
  "/dashboard/sessions",
  "/dashboard/webhooks",
  "/dashboard/integrations",
  "/dashboard/admin",
  "/dashboard/admin/users",
  "/dashboard/admin/models",
  "/dashboard/admin/transactions",
  "/dashboard/admin/providers",
];

// One page for every check: each path is loaded once per language and checked at both widths
// (resized in place), so the suite pays for half the page loads. axe runs at both widths in
// English and at the desktop width in Russian: a translation changes names and text, which the
// desktop scan sees, not the roles or colours the phone layout could break; the Russian phone
// layout still gets its overflow check. An axe scan is ~2.5 s of two shared cores (CI's budget).
const AXE_AT = { en: [1366, 390], ru: [1366] } as const;
for (const locale of ["en", "ru"] as const) {
  test(`no serious or critical axe findings at ${AXE_AT[locale].join(" and ")} px, no sideways scroll at 1366 and 390 px, in ${locale === "en" ? "English" : "Russian"}`, async ({
    page,
    baseURL,
  }) => {
    // Every public, dashboard and admin page, twice over: minutes while the other e2e run shares the cores.
    test.setTimeout(480_000);
    await signedInAdmin(page, baseURL!);
    await page.context().addCookies([{ name: "gw_locale", value: locale, url: baseURL! }]);
    const errors: string[] = [];
    page.on("console", (m) => m.type() === "error" && errors.push(`${page.url()}: ${m.text()}`));
    const findings: string[] = [];
    for (const path of PATHS) {
      await page.setViewportSize(VIEWPORTS[0]!);
      await page.goto(path);
      await page.waitForLoadState("load");
      for (const viewport of VIEWPORTS) {
        await page.setViewportSize(viewport);
        const name = `${locale}-${viewport.width}${path.replaceAll(/[/?%=]/g, "-")}`;
        const found = findings.length;
        if ((AXE_AT[locale] as readonly number[]).includes(viewport.width))
          for (const f of await seriousFindings(page)) findings.push(`${locale} ${viewport.width} ${path}: ${f}`);
        const width = await page.evaluate(() => document.documentElement.scrollWidth);
        if (width > viewport.width) findings.push(`${locale} ${viewport.width} ${path}: ${width}px wide`);
        await keepPageShot(page, name, findings.length > found);
      }
    }
    // Every finding of every page at once, so one run shows them all.
    expect(findings).toEqual([]);
    expect(errors).toEqual([]);
  });
}
