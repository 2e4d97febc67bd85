import { expect, test } from "@playwright/test";
import { signIn, userCreate } from "./sign-in";

test("an admin grants money on the user page and sees the grant on the Transactions page", async ({ page }) => {
  const stamp = Date.now();
  const admin = userCreate("--email", `money-admin-${stamp}@example.test`, "--admin");
  const target = userCreate("--email", `money-target-${stamp}@example.test`, "--credits", "100");

  await signIn(page, admin.email);
  await page.goto(`/dashboard/admin/users/${target.userId}`);
  await expect(page.getByRole("heading", { name: target.email })).toBeVisible();
  await expect(page.getByTestId("admin-user-balance")).toHaveText("100.00 ₽");

  await page.getByLabel("Amount, ₽").fill("500");
  await expect(page.getByText("Amount: 500.00 ₽")).toBeVisible();
  await page.getByLabel("Description").fill(`e2e goodwill ${stamp}`);
  await page.getByRole("button", { name: "Grant", exact: true }).click();
  // Like a ban, a grant is confirmed in a dialog naming the amount and the user; nothing moves before.
  const dialog = page.getByRole("dialog", { name: `Grant 500.00 ₽ to ${target.email}?` });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText(`They will see: “e2e goodwill ${stamp}”.`);
  await expect(page.getByTestId("admin-user-balance")).toHaveText("100.00 ₽");
  await dialog.getByRole("button", { name: "Grant", exact: true }).click();
  await expect(page.getByText("Granted 500.00 ₽; balance now 600.00 ₽.")).toBeVisible();
  await expect(page.getByTestId("admin-user-balance")).toHaveText("600.00 ₽");

  await page.getByRole("link", { name: "Transactions", exact: true }).click();
  await expect(page).toHaveURL(/\/dashboard\/admin\/transactions$/);
  const newest = page.getByTestId("transaction-row").first();
  await expect(newest).toContainText("Grant");
  await expect(newest).toContainText("+500.00 ₽");
  await expect(newest).toContainText("600.00 ₽");
  await expect(newest).toContainText(`e2e goodwill ${stamp}`);
  // Rows name their user by e-mail, and a part of an e-mail filters them.
  await expect(newest.getByTestId("transaction-user")).toHaveText(target.email);
  await page.getByLabel("User (e-mail or id)").fill(`money-target-${stamp}`);
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(new RegExp(`user=money-target-${stamp}`));
  await expect(page.getByTestId("transaction-row")).toHaveCount(2);

  await page.goto(`/dashboard/admin/transactions?userId=${target.userId}`);
  await expect(page.getByTestId("transaction-row")).toHaveCount(2);
  await expect(page.getByTestId("transaction-row").nth(1)).toContainText("Granted with user:create --credits");

  await page.getByRole("link", { name: "Stats" }).click();
  await expect(page.getByTestId("stat-issued")).not.toHaveText("0.00 ₽");
});

test("a user's Usage page shows the chart and switches windows", async ({ page }) => {
  const user = userCreate("--email", `usage-${Date.now()}@example.test`);
  await signIn(page, user.email);
  await page.getByRole("link", { name: "Usage", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Usage", exact: true })).toBeVisible();
  await expect(page.getByTestId("spend-chart")).toBeVisible();
  await expect(page.getByText("No spend in this period.")).toBeVisible();
  await page.getByRole("link", { name: "24h" }).click();
  await expect(page).toHaveURL(/window=24h/);
  await expect(page.getByText("per hour · UTC")).toBeVisible();
});
