import { expect, test } from "@playwright/test";

test("a visitor searches the catalog, filters by category, opens a model and sees the estimate follow num_images", async ({ page }) => {
  await page.goto("/catalog");
  await expect(page.getByRole("heading", { level: 1, name: "Models" })).toBeVisible();

  const search = page.getByRole("searchbox", { name: "Search models" });
  await search.fill("flux");
  await search.press("Enter");
  await expect(page).toHaveURL(/[?&]search=flux/);
  const grid = page.getByTestId("model-grid");
  await expect(grid.getByRole("heading", { name: "FLUX.1 Kontext [pro]" })).toBeVisible();

  await page.getByRole("region", { name: "Category" }).getByRole("link", { name: /^Text to image/ }).click();
  await expect(page).toHaveURL(/category=text-to-image/);
  await expect(page).toHaveURL(/search=flux/);
  await expect(grid.getByRole("heading", { name: "FLUX.1 Kontext [pro]" })).toHaveCount(0);

  await grid.getByRole("link").filter({ has: page.getByRole("heading", { name: "FLUX.1 [dev]", exact: true }) }).click();
  await expect(page).toHaveURL(/\/catalog\/fal-ai\/flux\/dev$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("FLUX.1 [dev]");
  await expect(page.getByTestId("unit-price").first()).toHaveText("2.25 ₽");

  // 2.25 ₽/MP × 1.048576 MP (square_hd) = 2.359296 → 2.3593 ₽; three images → 7.077888 → 7.0779 ₽.
  const cost = page.getByTestId("estimate-cost");
  await expect(cost).toHaveText("2.3593 ₽");
  await page.getByLabel("Number of images").fill("3");
  await expect(cost).toHaveText("7.0779 ₽");
  await expect(page.getByTestId("curl-run")).toContainText('"num_images": 3');
  await expect(page.getByTestId("curl-generate")).toContainText('"model": "fal-ai/flux/dev"');

  await page.getByLabel("Number of images").fill("9");
  await expect(cost).toContainText("Fix the highlighted fields");
  await expect(page.getByRole("alert").filter({ hasText: "expected number to be <=4" })).toBeVisible();
});

test("the URL holds the catalog state, so a filtered, sorted page can be shared", async ({ page }) => {
  const response = await page.goto("/catalog?category=music&sort=price_asc");
  expect(response?.status()).toBe(200);
  await expect(page.getByTestId("result-count")).toHaveText("3 models");
  await expect(page.getByRole("combobox", { name: "Sort" })).toHaveValue("price_asc");
  const names = await page.getByTestId("model-grid").getByRole("heading").allTextContents();
  expect(names).toEqual(["ACE-Step", "MiniMax Music", "Lyria 2"]);
});

test("the model page speaks Russian when the visitor picked it, and hidden models are 404", async ({ page, baseURL }) => {
  await page.context().addCookies([{ name: "gw_locale", value: "ru", url: baseURL! }]);
  await page.goto("/catalog/fal-ai/flux/dev");
  await expect(page.getByLabel("Количество изображений")).toHaveValue("1");
  await expect(page.getByText("Оценка стоимости")).toBeVisible();
  const hidden = await page.goto("/catalog/fal-ai/flux-pro/v1");
  expect(hidden?.status()).toBe(404);
});
