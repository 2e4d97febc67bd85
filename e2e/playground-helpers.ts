import { expect, type Page } from "@playwright/test";

export const MODEL = "fal-ai/flux/schnell";

/** Fills the playground's form for a small image and runs it; returns the request id once it completed. */
export async function runFromPlayground(page: Page, prompt: string): Promise<string> {
  await page.goto(`/catalog/${MODEL}`);
  await page.locator("#field-prompt").fill(prompt);
  await page.locator("#field-image_size").selectOption("square");
  await page.getByTestId("run-button").click();
  await expect(page.getByTestId("run-status")).toHaveAttribute("data-phase", "completed", { timeout: 30_000 });
  return (await page.getByTestId("run-request-id").textContent())!;
}

/** The balance as GET /me/balance answers it, with the page's session cookie. */
export async function balanceOf(page: Page): Promise<number> {
  const res = await page.request.get("/me/balance");
  expect(res.status()).toBe(200);
  return ((await res.json()) as { balance: number }).balance;
}
