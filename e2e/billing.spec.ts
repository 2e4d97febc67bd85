import { expect, test } from "@playwright/test";
import { signIn, userCreate } from "./sign-in";

test("a user tops up 500 ₽ through the local provider's confirmation page and sees the balance and the payment", async ({ page }) => {
  const user = userCreate("--email", `billing-${Date.now()}@example.test`);
  await signIn(page, user.email);

  await page.getByRole("link", { name: "Billing", exact: true }).click();
  await expect(page).toHaveURL(/\/dashboard\/billing$/);
  await expect(page.getByTestId("balance")).toHaveText("0.00 ₽");
  await expect(page.getByText("No payments yet.")).toBeVisible();

  await page.getByLabel("Amount, ₽").fill("500");
  // Saving the card is consent: unticked until the user ticks it.
  const save = page.getByLabel("Save the card for automatic top-ups");
  await expect(save).not.toBeChecked();
  await save.check();
  await page.getByRole("button", { name: "Top up" }).click();

  // The provider's hosted page (the local simulator inside the app).
  await expect(page).toHaveURL(/\/pay\/local\/lp_[0-9a-f-]+$/);
  await expect(page.getByTestId("local-payment-amount")).toHaveText("500.00 ₽");
  await page.getByRole("button", { name: "Pay" }).click();

  // Back on Billing: the credits are there, and so is the payment.
  await expect(page).toHaveURL(/\/dashboard\/billing$/);
  await expect(page.getByTestId("balance")).toHaveText("500.00 ₽");
  const row = page.getByTestId("payment-row");
  await expect(row).toHaveCount(1);
  await expect(row).toContainText("500.00 ₽");
  await expect(row).toContainText("succeeded");
  await expect(page.getByTestId("payment-method")).toContainText("Visa •••• 4242");
  // Money in rubles only: the ledger's unit is never named beside a payment ("Credits 5,000,000").
  await expect(page.locator("main")).not.toContainText(/credit/i);

  // The receipt link redirects to the printable receipt.
  const href = await row.getByRole("link", { name: "Receipt" }).getAttribute("href");
  await page.goto(href!);
  await expect(page.getByRole("heading", { name: "Generation Gateway — receipt" })).toBeVisible();
  await expect(page.getByRole("article").getByText("500.00 ₽")).toBeVisible();

  // The same payment through the API: succeeded, granted once.
  const api = await page.evaluate(async () => (await fetch("/billing/payments")).json());
  expect(api).toMatchObject({ total: 1, items: [{ status: "succeeded", amountKopecks: 50_000, creditsToGrant: 5_000_000 }] });
});
