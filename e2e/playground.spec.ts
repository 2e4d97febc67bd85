import { expect, test } from "@playwright/test";
import { formatMoney } from "../lib/i18n/format";
import { signedInUser } from "./generation-db";
import { balanceOf, MODEL, runFromPlayground } from "./playground-helpers";

test("a signed-in user with credits runs a text-to-image model from the playground and sees the image and the new balance", async ({
  page,
  context,
  baseURL,
}) => {
  await signedInUser(context, baseURL!, { rub: 100 });
  await page.goto(`/catalog/${MODEL}`);
  await expect(page.getByTestId("run-balance")).toHaveText(formatMoney(100 * 10_000, "balance", "en"));

  const requestId = await runFromPlayground(page, "a lighthouse at dusk, oil painting");
  expect(requestId).toMatch(/^[0-9a-f-]{36}$/);

  // The image is shown inline and really loads (a 512×512 picture served by the app).
  const image = page.getByTestId("result-image").locator("img");
  await expect(image).toHaveCount(1);
  await expect(image).toHaveJSProperty("complete", true);
  expect(await image.evaluate((img: HTMLImageElement) => [img.naturalWidth, img.naturalHeight])).toEqual([512, 512]);

  // The cost line and the new balance agree with the server's balance.
  await expect(page.getByTestId("run-cost")).toBeVisible();
  const charged = await page.getByTestId("run-charged").textContent();
  expect(charged).toMatch(/^0\.\d+\s₽$/);
  const balance = await balanceOf(page);
  expect(balance).toBeLessThan(100 * 10_000);
  await expect(page.getByTestId("run-balance")).toHaveText(formatMoney(balance, "balance", "en"));
  // The header's balance follows the run too.
  await expect(page.getByTestId("site-balance")).toHaveText(formatMoney(balance, "balance", "en"));
});

test("a visitor who is not signed in sees a sign-in prompt instead of the run button", async ({ page }) => {
  await page.goto(`/catalog/${MODEL}`);
  await expect(page.getByTestId("run-button")).toHaveCount(0);
  const prompt = page.getByRole("link", { name: "Sign in to run this model" });
  await expect(prompt).toHaveAttribute("href", `/signin?callbackUrl=${encodeURIComponent(`/catalog/${MODEL}`)}`);
  await prompt.click();
  await expect(page).toHaveURL(/\/signin\?callbackUrl=/);
});

test("a user without credits gets the 402 with a link to top up; a missing prompt is marked beside its field before sending", async ({
  page,
  context,
  baseURL,
}) => {
  await signedInUser(context, baseURL!);
  await page.goto(`/catalog/${MODEL}`);
  // The missing prompt is marked at its field before anything is sent (issue 40: no invalid_body box).
  await page.getByTestId("run-button").click();
  const error = page.getByTestId("run-error");
  await expect(page.locator("#field-prompt")).toHaveAttribute("aria-invalid", "true");
  await expect(page.locator("#field-prompt-error")).toBeVisible();
  await expect(error).toHaveCount(0);

  await page.locator("#field-prompt").fill("a red fox");
  await page.getByTestId("run-button").click();
  await expect(error).toHaveAttribute("data-code", "insufficient_balance");
  await expect(page.getByTestId("topup-link")).toHaveAttribute("href", "/dashboard/billing");
  await expect(page.getByTestId("run-status")).toHaveCount(0);
});

test("a run is followed live (queued, running, logs) and a failed run shows its error and is refunded", async ({
  page,
  context,
  baseURL,
}) => {
  await signedInUser(context, baseURL!, { rub: 10 });
  await page.goto(`/catalog/${MODEL}`);
  await page.locator("#field-image_size").selectOption("square");

  // The simulator takes its time: the status and the provider's logs arrive over SSE before the result.
  await page.locator("#field-prompt").fill("a slow comet [latency:4000]");
  await page.getByTestId("run-button").click();
  await expect(page.getByTestId("run-status")).toHaveAttribute("data-phase", /^(queued|in_progress)$/);
  await expect(page.getByTestId("run-logs")).not.toBeEmpty();
  await expect(page.getByTestId("result-image")).toHaveCount(0);
  await expect(page.getByTestId("run-status")).toHaveAttribute("data-phase", "completed", { timeout: 30_000 });
  await expect(page.getByTestId("result-image")).toHaveCount(1);
  const afterFirst = await balanceOf(page);
  await expect(page.getByTestId("run-balance")).toHaveText(formatMoney(afterFirst, "balance", "en"));

  await page.locator("#field-prompt").fill("a forbidden fox [fail:generation]");
  await page.getByTestId("run-button").click();
  await expect(page.getByTestId("run-status")).toHaveAttribute("data-phase", "failed", { timeout: 30_000 });
  await expect(page.getByTestId("run-failure")).toContainText("generation_failed");
  await expect(page.getByTestId("run-cost")).toHaveText(
    /^Nothing was charged: the \d+\.\d+\s₽ reserved for this run went back to your balance\.$/,
  );
  expect(await balanceOf(page)).toBe(afterFirst);
  await expect(page.getByTestId("run-balance")).toHaveText(formatMoney(afterFirst, "balance", "en"));
  await expect(page.getByTestId("result-image")).toHaveCount(0);
});
