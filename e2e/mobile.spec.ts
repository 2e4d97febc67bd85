import { expect, test, type Page } from "@playwright/test";
import { withAppDb } from "./catalog-db";
import { keepPageShot } from "./page-shots";
import { MODEL, runFromPlayground } from "./playground-helpers";

const PHONE = { width: 390, height: 844 };
test.use({ viewport: PHONE, isMobile: true, hasTouch: true });

/** A new admin (every dashboard page, the admin area too) with a live session cookie. */
async function signedInAdmin(page: Page, baseURL: string) {
  const user = await withAppDb(async (sql) => {
    const id = crypto.randomUUID();
    const token = crypto.randomUUID();
    const email = `phone-${id}@example.test`;
    await sql`insert into users (id, email, name, role) values (${id}, ${email}, 'E2E Phone', 'admin')`;
    await sql`insert into sessions (session_token, id, user_id, expires) values (${token}, ${crypto.randomUUID()}, ${id}, now() + interval '1 day')`;
    return { id, email, token };
  });
  await page.context().addCookies([{ name: "authjs.session-token", value: user.token, url: baseURL }]);
  return user;
}

/** Nothing on the page is wider than the phone: the document never scrolls sideways. */
async function expectNoSidewaysScroll(page: Page, name: string) {
  await page.waitForLoadState("load");
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  await keepPageShot(page, name, width > PHONE.width);
  expect(width, `${name} is ${width}px wide`).toBeLessThanOrEqual(PHONE.width);
}

/** The element is on screen horizontally (reachable without sideways scrolling) and visible. */
async function expectWithinPhone(page: Page, locator: ReturnType<Page["locator"]>) {
  await expect(locator).toBeVisible();
  const box = (await locator.boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);
}

test("at 390 px every dashboard page, the catalog and a model page fit the phone, with every action reachable", async ({
  page,
  baseURL,
}) => {
  test.setTimeout(180_000);
  const user = await signedInAdmin(page, baseURL!);

  // Public pages.
  await page.goto("/");
  await expectNoSidewaysScroll(page, "landing");
  await page.goto("/catalog");
  await expectNoSidewaysScroll(page, "catalog");
  // The filters fold behind a button; the first model is near the top.
  await expect(page.getByRole("region", { name: "Category" })).toBeHidden();
  const firstModel = page.getByTestId("model-grid").getByRole("link").first();
  expect((await firstModel.boundingBox())!.y).toBeLessThan(PHONE.height);
  await page.getByRole("button", { name: "Filters" }).click();
  await page
    .getByRole("region", { name: "Category" })
    .getByRole("link", { name: /^Text to image/ })
    .click();
  await expect(page).toHaveURL(/category=text-to-image/);
  await expect(page.getByRole("region", { name: "Category" })).toBeHidden();
  await expectNoSidewaysScroll(page, "catalog-filtered");

  // A top-up through the local provider (a billing history row) and a run (an activity row).
  await page.goto("/dashboard/billing");
  await page.getByLabel("Amount, ₽").fill("500");
  await page.getByRole("button", { name: "Top up" }).click();
  await expect(page).toHaveURL(/\/pay\/local\//);
  await expectNoSidewaysScroll(page, "pay-local");
  await page.getByRole("button", { name: "Pay" }).click();
  await expect(page).toHaveURL(/\/dashboard\/billing$/);
  const payment = page.getByTestId("payment-row");
  await expect(payment).toHaveCount(1);
  await expectWithinPhone(page, payment.getByRole("link", { name: "Receipt" }));
  await expectWithinPhone(page, payment.getByText("succeeded"));
  await expectNoSidewaysScroll(page, "billing");

  const requestId = await runFromPlayground(page, "a lighthouse at dusk");
  await expectNoSidewaysScroll(page, "model-page");
  await expectWithinPhone(page, page.getByTestId("curl-run"));

  // Keys: created through the dashboard's own API, then every action reachable on the phone.
  const created = await page.request.post("/me/keys", { data: { name: "phone key" } });
  expect(created.status()).toBe(201);
  await page.goto("/dashboard/keys");
  const row = page.getByTestId("key-row");
  await expect(row).toHaveCount(1);
  for (const name of ["Rename", "Cap", "Disable", "Delete"]) await expectWithinPhone(page, row.getByRole("button", { name, exact: true }));
  await expectNoSidewaysScroll(page, "keys");
  await row.getByRole("button", { name: "Rename", exact: true }).click();
  await row.getByLabel("Key name").fill("renamed on a phone");
  await row.getByRole("button", { name: "Save" }).click();
  await expect(row).toContainText("renamed on a phone");
  await row.getByRole("button", { name: "Disable", exact: true }).click();
  await expect(row.getByRole("button", { name: "Enable", exact: true })).toBeVisible();
  await expectNoSidewaysScroll(page, "keys-edited");

  // Activity: the row's details link is on screen.
  await page.goto("/dashboard/activity");
  const activity = page.locator(`[data-testid="activity-row"][data-request-id="${requestId}"]`);
  await expect(activity).toContainText(MODEL);
  await expectWithinPhone(page, activity.getByRole("link", { name: "Details" }));
  await expectNoSidewaysScroll(page, "activity");
  await activity.getByRole("link", { name: "Details" }).click();
  await expect(page.getByTestId("activity-status")).toHaveText("completed");
  await expectNoSidewaysScroll(page, "activity-detail");

  // The sidebar is a menu on a phone: hidden until opened, then it navigates and folds.
  await page.goto("/dashboard");
  const nav = page.getByRole("navigation", { name: "Dashboard" });
  await expect(nav).toBeHidden();
  await page.getByRole("button", { name: "Menu" }).click();
  await expect(nav.getByRole("link", { name: "Overview" })).toHaveAttribute("aria-current", "page");
  await nav.getByRole("link", { name: "Sessions", exact: true }).click();
  await expect(page).toHaveURL(/\/dashboard\/sessions$/);
  await expect(nav).toBeHidden();

  for (const path of [
    "/dashboard",
    "/dashboard/usage",
    "/dashboard/profile",
    "/dashboard/sessions",
    "/dashboard/webhooks",
    "/dashboard/integrations",
    "/dashboard/admin",
    "/dashboard/admin/users",
    `/dashboard/admin/users/${user.id}`,
    "/dashboard/admin/models",
    "/dashboard/admin/providers",
  ]) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(200);
    await expectNoSidewaysScroll(page, path.slice(1).replaceAll("/", "-"));
  }

  // Admin Transactions names users by e-mail and filters by any part of one.
  await page.goto("/dashboard/admin/transactions");
  await page.getByLabel("User (e-mail or id)").fill(user.email.split("@")[0]!.toUpperCase());
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(/[?&]user=/);
  // This admin's rows only (the top-up and the run's charge), each named by the e-mail.
  const users = page.getByTestId("transaction-row").getByTestId("transaction-user");
  await expect(users.first()).toHaveText(user.email);
  expect(new Set(await users.allTextContents())).toEqual(new Set([user.email]));
  await expectWithinPhone(page, users.first());
  await expectNoSidewaysScroll(page, "dashboard-admin-transactions");
});
