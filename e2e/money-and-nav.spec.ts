import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { exactMoney, formatMoney } from "../lib/i18n/format";
import { withAppDb } from "./catalog-db";
import { signedInUser } from "./generation-db";
import { MODEL } from "./playground-helpers";

// A balance holding a fraction of a kopeck (744.715 ₽), and a run charged a fraction of one (1.4583 ₽).
const BALANCE_RUB = "744.715";
const BALANCE_CREDITS = 7_447_150;
const CHARGE_CREDITS = 14_583;

const WIDTHS = [
  { width: 1366, height: 900 },
  { width: 390, height: 844 },
] as const;

const WORDS = {
  en: { nav: "Dashboard", menu: "Menu", catalog: "Model catalog", models: "Models", account: "Account" },
  ru: { nav: "Кабинет", menu: "Меню", catalog: "Каталог моделей", models: "Модели", account: "Аккаунт" },
} as const;

/** Serious and critical axe findings on the page as it is now (WCAG 2.x A and AA rules), as a11y.spec.ts counts them. */
async function seriousFindings(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  return result.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map(
      (v) =>
        `${page.url()} ${v.id}: ${v.nodes
          .map((n) => n.target.join(" "))
          .slice(0, 3)
          .join(", ")}`,
    );
}

/** A user of the running server (not an admin) with 744.715 ₽ and one completed run charged 1.4583 ₽. */
async function userWithMoney(page: Page, baseURL: string) {
  const user = await signedInUser(page.context(), baseURL, { rub: Number(BALANCE_RUB) });
  const recordId = `act_${crypto.randomUUID()}`;
  await withAppDb(async (sql) => {
    await sql`insert into activity (id, user_id, model_id, operation, credits, status, duration_ms)
      values (${recordId}, ${user.userId}, ${MODEL}, 'queue', ${CHARGE_CREDITS}, 'completed', 1200)`;
  });
  return { ...user, recordId };
}

/** Two decimals exactly, grouped the locale's way: "744.71 ₽", "1 234,56 ₽". */
const TWO_DECIMALS = /^-?\d{1,3}(?:[,\u00a0]\d{3})*[.,]\d{2}\u00a0₽$/;

for (const locale of ["en", "ru"] as const) {
  for (const viewport of WIDTHS) {
    const phone = viewport.width < 768;
    test(`${locale} at ${viewport.width} px: models from the dashboard's navigation, the balance and account in the public header, one money format`, async ({
      page,
      baseURL,
    }) => {
      test.setTimeout(120_000);
      const w = WORDS[locale];
      await page.setViewportSize(viewport);
      await page.context().addCookies([{ name: "gw_locale", value: locale, url: baseURL! }]);
      const user = await userWithMoney(page, baseURL!);
      const balance = formatMoney(BALANCE_CREDITS, "balance", locale);
      const exact = exactMoney(BALANCE_CREDITS, locale)!;
      expect(balance).toMatch(TWO_DECIMALS);
      expect(exact).toBe(locale === "en" ? "744.715\u00a0₽" : "744,715\u00a0₽");
      const findings: string[] = [];

      // The overview: the balance to the kopeck (rounded down), the exact amount offered in its title.
      await page.goto("/dashboard");
      const overview = page.getByTestId("overview-balance");
      await expect(overview).toHaveText(balance);
      expect(await overview.textContent()).toMatch(TWO_DECIMALS);
      await expect(overview).toHaveAttribute("title", exact);

      // The header's balance (on a phone, in the menu) says the same; the menu leads to the catalog.
      if (phone) {
        await page.getByRole("button", { name: w.menu }).click();
        await expect(page.getByTestId("menu-balance")).toHaveText(balance);
        findings.push(...(await seriousFindings(page)));
      } else {
        await expect(page.getByTestId("header-balance")).toHaveText(balance);
        findings.push(...(await seriousFindings(page)));
      }
      await page.getByRole("navigation", { name: w.nav }).getByRole("link", { name: w.catalog }).click();
      await expect(page).toHaveURL(/\/catalog$/);
      await expect(page.getByRole("heading", { level: 1, name: w.models })).toBeVisible();

      // A public page, signed in: the header shows the balance and the account.
      const siteBalance = page.getByTestId("site-balance");
      await expect(siteBalance).toBeVisible();
      await expect(siteBalance).toHaveText(balance);
      await expect(siteBalance).toHaveAttribute("title", exact);
      const account = page.getByTestId("site-account");
      await expect(account).toBeVisible();
      await expect(account).toHaveAttribute("href", "/dashboard");
      await expect(account).toHaveAccessibleName(`${w.account}: ${user.email}`);
      if (!phone) await expect(account).toContainText(user.email);
      // Nothing in the header is squeezed out of its box, nor the page wider than the screen.
      for (const item of [siteBalance.locator("xpath=.."), account])
        expect(await item.evaluate((el) => el.scrollWidth <= el.clientWidth), "fits its box").toBe(true);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
      findings.push(...(await seriousFindings(page)));
      // The balance links to Billing, whose balance agrees.
      await siteBalance.click();
      await expect(page).toHaveURL(/\/dashboard\/billing$/);
      await expect(page.getByTestId("balance")).toHaveText(balance);
      expect(await page.getByTestId("balance").textContent()).toMatch(TWO_DECIMALS);

      // A run's charge keeps every digit it has: 1.4583 ₽, in the list and on its page.
      const charge = formatMoney(CHARGE_CREDITS, "charge", locale);
      expect(charge).toBe(locale === "en" ? "1.4583\u00a0₽" : "1,4583\u00a0₽");
      await page.goto("/dashboard/activity");
      await expect(page.locator(`[data-testid="activity-row"]`).first()).toContainText(charge);
      await page.goto(`/dashboard/activity/${user.recordId}`);
      await expect(page.getByTestId("activity-cost")).toHaveText(charge);
      findings.push(...(await seriousFindings(page)));

      // No page a user sees names the ledger's unit.
      const paths = [
        "/",
        "/catalog",
        `/catalog/${MODEL}`,
        "/dashboard",
        "/dashboard/billing",
        "/dashboard/usage",
        "/dashboard/activity",
        `/dashboard/activity/${user.recordId}`,
        "/dashboard/keys",
      ];
      const credits = locale === "en" ? /credit/i : /кредит|credit/i;
      for (const path of paths) {
        await page.goto(path);
        const text = `${await page.title()}\n${await page.locator("body").innerText()}`;
        expect(text.match(credits), `${path} in ${locale}`).toBeNull();
      }
      expect(findings).toEqual([]);
    });
  }
}
