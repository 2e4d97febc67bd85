import { expect, test } from "@playwright/test";
import { signedInUser } from "./generation-db";

test.describe("a browser that prefers Russian", () => {
  test.use({ locale: "ru-RU" });

  test("gets whole pages in Russian with Russian numbers, until the visitor picks English", async ({ page }) => {
    await page.goto("/");
    await expect(page.locator("html")).toHaveAttribute("lang", "ru");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Генерируйте изображения, видео и звук через один API.");
    await expect(page.getByRole("link", { name: "Смотреть модели" })).toHaveAttribute("href", "/catalog");

    await page.goto("/catalog?category=music&sort=price_asc");
    await expect(page.getByRole("heading", { level: 1, name: "Модели" })).toBeVisible();
    await expect(page.getByTestId("result-count")).toHaveText("3 модели");

    await page.goto("/catalog/fal-ai/flux/dev");
    await expect(page.getByTestId("unit-price").first()).toHaveText("2,25 ₽");
    await expect(page.getByText("за мегапиксель").first()).toBeVisible();
    await expect(page.getByTestId("estimate-cost")).toHaveText("2,3593 ₽");
    await expect(page.getByTestId("estimate-detail")).toHaveText("1,048576 мегапикселя × 2,25 ₽");
    await expect(page.getByText("Оценка стоимости")).toBeVisible();

    // The switcher remembers the choice: the same page in English, numbers included.
    await page.getByTestId("locale-switcher").getByRole("button", { name: "English" }).click();
    await expect(page.locator("html")).toHaveAttribute("lang", "en");
    await expect(page.getByTestId("estimate-detail")).toHaveText("1.048576 megapixels × 2.25 ₽");
    await expect(page.getByTestId("unit-price").first()).toHaveText("2.25 ₽");
    await page.goto("/");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Generate images, video and audio through one API.");
  });

  test("the dashboard's Overview and keys speak Russian", async ({ page, context, baseURL }) => {
    await signedInUser(context, baseURL!, { rub: 12 });
    await page.goto("/dashboard");
    await expect(page.getByRole("heading", { level: 1, name: "Обзор" })).toBeVisible();
    await expect(page.getByTestId("overview-balance")).toHaveText("12,00 ₽");
    await expect(page.getByRole("link", { name: "Пополнить", exact: true })).toBeVisible();
    await expect(page.getByRole("navigation", { name: "Кабинет" }).getByRole("link", { name: "Обзор" })).toHaveAttribute(
      "aria-current",
      "page",
    );

    expect((await page.request.post("/me/keys", { data: { name: "ключ" } })).status()).toBe(201);
    await page.goto("/dashboard/keys");
    await expect(page.getByRole("heading", { level: 1, name: "API-ключи" })).toBeVisible();
    const row = page.getByTestId("key-row");
    await expect(row.getByRole("button", { name: "Переименовать" })).toBeVisible();
    await expect(row).toContainText("0 запросов");
  });
});

test("an English browser gets English, with English numbers", async ({ page }) => {
  await page.goto("/catalog/fal-ai/flux/dev");
  await expect(page.locator("html")).toHaveAttribute("lang", "en");
  await expect(page.getByTestId("estimate-detail")).toHaveText("1.048576 megapixels × 2.25 ₽");
});
