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
  // Each card shows an example output: the picture the app renders with the simulator, loaded.
  const example = grid.getByTestId("model-example").first();
  await expect(example).toHaveAttribute("src", /^\/examples\//);
  await example.scrollIntoViewIfNeeded();
  await expect(example).toHaveJSProperty("complete", true);
  expect(await example.evaluate((el: HTMLImageElement) => el.naturalWidth)).toBe(480);

  await page
    .getByRole("region", { name: "Category" })
    .getByRole("link", { name: /^Text to image/ })
    .click();
  await expect(page).toHaveURL(/category=text-to-image/);
  await expect(page).toHaveURL(/search=flux/);
  await expect(grid.getByRole("heading", { name: "FLUX.1 Kontext [pro]" })).toHaveCount(0);

  await grid
    .getByRole("link")
    .filter({ has: page.getByRole("heading", { name: "FLUX.1 [dev]", exact: true }) })
    .click();
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
  await expect(page.getByTestId("model-example-figure").getByRole("img")).toHaveJSProperty("complete", true);

  // The code tabs: the keyboard moves between curl, JavaScript and Python (the ARIA tabs pattern).
  const tabs = page.getByRole("tablist", { name: "Call it from code" });
  const curlTab = tabs.getByRole("tab", { name: "curl" });
  await expect(curlTab).toHaveAttribute("aria-selected", "true");
  await curlTab.focus();
  await page.keyboard.press("ArrowRight");
  const jsTab = tabs.getByRole("tab", { name: "JavaScript" });
  await expect(jsTab).toBeFocused();
  await expect(jsTab).toHaveAttribute("aria-selected", "true");
  const js = page.getByRole("tabpanel", { name: "JavaScript" }).getByTestId("code-javascript");
  await expect(js).toContainText(`url: "${new URL(page.url()).origin}/api/fal/proxy", when: "always"`);
  await expect(js).toContainText('"num_images": 3');
  await expect(js).toContainText('"prompt": "a lighthouse on a cliff at dawn, oil painting"');
  await expect(page.getByTestId("curl-run")).toBeHidden();
  await page.keyboard.press("End");
  await expect(tabs.getByRole("tab", { name: "Python" })).toBeFocused();
  await expect(page.getByRole("tabpanel", { name: "Python" }).getByTestId("code-python")).toContainText('"num_images": 3,');
  await page.keyboard.press("ArrowRight");
  await expect(curlTab).toBeFocused();
  await expect(page.getByTestId("curl-run")).toBeVisible();

  await page.getByLabel("Number of images").fill("9");
  await expect(cost).toContainText("Fix the highlighted fields");
  // The form checks itself from the schema: the problem is marked at the field, in words (issue 40).
  await expect(page.getByText("Enter 4 or less.")).toBeVisible();
});

test("the URL holds the catalog state, so a filtered, sorted page can be shared", async ({ page }) => {
  const response = await page.goto("/catalog?category=music&sort=price_asc");
  expect(response?.status()).toBe(200);
  await expect(page.getByTestId("result-count")).toHaveText("3 models");
  await expect(page.getByRole("combobox", { name: "Sort" })).toHaveValue("price_asc");
  const names = await page.getByTestId("model-grid").getByRole("heading").allTextContents();
  expect(names).toEqual(["ACE-Step", "MiniMax Music", "Lyria 2"]);
  // Facet counts narrow with the other filters: under music, a lab counts its music models.
  const labs = page.getByRole("region", { name: "Lab" }).getByRole("link");
  const counts = (await labs.allTextContents()).map((t) => Number(t.match(/(\d+)$/)![1]));
  expect(counts.reduce((a, b) => a + b, 0)).toBe(3);
});

test("the model page speaks Russian when the visitor picked it, and hidden models are 404", async ({ page, baseURL }) => {
  await page.context().addCookies([{ name: "gw_locale", value: "ru", url: baseURL! }]);
  await page.goto("/catalog/fal-ai/flux/dev");
  await expect(page.getByLabel("Количество изображений")).toHaveValue("1");
  await expect(page.getByText("Оценка стоимости")).toBeVisible();
  const hidden = await page.goto("/catalog/fal-ai/flux-pro/v1");
  expect(hidden?.status()).toBe(404);
});

test("a discounted model shows the price charged, the price before the discount struck, and an estimate that agrees", async ({
  page,
  request,
}) => {
  // Imagen 4 is seeded at 3.6 ₽ per image, 20 % off: 2.88 ₽ is charged.
  const card = await (await request.get("/models/fal-ai/imagen4/preview")).json();
  expect(card).toMatchObject({ priceRub: 2.88, originalPriceRub: 3.6, discountPercent: 20 });
  await page.goto("/catalog/fal-ai/imagen4/preview");
  const tag = page.getByTestId("unit-price").first().locator("..");
  await expect(page.getByTestId("unit-price").first()).toHaveText("2.88 ₽");
  await expect(tag.locator("s")).toHaveText("3.60 ₽");
  await expect(tag).toContainText("−20%");
  await expect(page.getByTestId("estimate-cost")).toHaveText("2.88 ₽");
});
