import { expect, test } from "@playwright/test";

test("the home page renders and links to the catalog and the API reference", async ({ page }) => {
  const response = await page.goto("/");
  expect(response?.status()).toBe(200);
  expect(response?.headers()["x-request-id"]).toBeTruthy();
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Generate images, video and audio");
  await expect(page.getByRole("link", { name: "Browse models" })).toHaveAttribute("href", "/catalog");
});

test("/docs renders the API reference from /openapi.json", async ({ page }) => {
  const spec = page.waitForResponse((r) => r.url().endsWith("/openapi.json") && r.status() === 200);
  await page.goto("/docs");
  await spec;
  await expect(page.getByText("Generation Gateway API").first()).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText("/health").first()).toBeVisible();
});

test("an unknown page is a 404 that still carries X-Request-ID", async ({ page }) => {
  const response = await page.goto("/no-such-page");
  expect(response?.status()).toBe(404);
  expect(response?.headers()["x-request-id"]).toBeTruthy();
  await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
});
