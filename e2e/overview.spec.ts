import { expect, test } from "@playwright/test";
import { signedInUser } from "./generation-db";
import { MODEL, runFromPlayground } from "./playground-helpers";

test("the Overview shows the balance, the 7-day spend and the latest run after a top-up and a run", async ({ page, context, baseURL }) => {
  test.setTimeout(120_000);
  await signedInUser(context, baseURL!);

  // A newcomer: nothing yet, every first step still to do.
  await page.goto("/dashboard");
  await expect(page.getByRole("heading", { level: 1, name: "Overview" })).toBeVisible();
  await expect(page.getByTestId("overview-balance")).toHaveText(/^0[.,]00\s₽$/);
  await expect(page.getByTestId("getting-started").locator('li[data-done="false"]')).toHaveCount(3);
  await expect(page.getByText("No runs yet.")).toBeVisible();

  // A top-up through the local provider, from the Overview's button.
  await page.getByRole("link", { name: "Top up", exact: true }).click();
  await expect(page).toHaveURL(/\/dashboard\/billing$/);
  await page.getByLabel("Amount, ₽").fill("100");
  await page.getByRole("button", { name: "Top up" }).click();
  await page.getByRole("button", { name: "Pay" }).click();
  await expect(page).toHaveURL(/\/dashboard\/billing$/);

  // A run from the playground.
  const requestId = await runFromPlayground(page, "a red kite over a field");
  const charged = (await page.getByTestId("run-charged").textContent())!.trim();
  await page.goto("/dashboard/billing");
  const balance = (await page.getByTestId("balance").textContent())!.trim();

  await page.goto("/dashboard");
  await expect(page.getByTestId("overview-balance")).toHaveText(balance);
  await expect(page.getByTestId("overview-spend")).toHaveText(charged);
  await expect(page.getByTestId("overview-operations")).toHaveText("1");
  await expect(page.getByTestId("spend-chart").locator("rect")).toHaveCount(7);
  const latest = page.getByTestId("recent-run").first();
  await expect(latest).toHaveAttribute("data-status", "completed");
  await expect(latest).toContainText(MODEL);
  await expect(latest).toContainText(charged);
  const thumb = latest.getByRole("img", { name: `Output of ${MODEL}` });
  await expect(thumb).toHaveJSProperty("complete", true);
  expect(await thumb.evaluate((el: HTMLImageElement) => el.naturalWidth)).toBeGreaterThan(0);
  // Two steps done; the key is still to do.
  await expect(page.getByTestId("getting-started").locator('li[data-done="true"]')).toHaveCount(2);
  await expect(page.getByTestId("getting-started").locator('li[data-done="false"]')).toContainText("Create an API key");

  // The 30-day window holds the same run.
  await page.getByRole("link", { name: "30d", exact: true }).click();
  await expect(page).toHaveURL(/spend=30d/);
  await expect(page.getByTestId("overview-spend")).toHaveText(charged);
  await expect(page.getByTestId("spend-chart").locator("rect")).toHaveCount(30);

  // With a key, the first steps are done and disappear; the key is listed as in use.
  expect((await page.request.post("/me/keys", { data: { name: "overview key" } })).status()).toBe(201);
  await page.reload();
  await expect(page.getByTestId("getting-started")).toHaveCount(0);
  await expect(page.getByTestId("keys-in-use")).toContainText("overview key");

  // The run opens its activity record.
  await latest.click();
  await expect(page).toHaveURL(/\/dashboard\/activity\//);
  await expect(page.getByTestId("activity-status")).toHaveText("completed");
  expect(requestId).toBeTruthy();
});
