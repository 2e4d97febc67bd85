import { expect, test } from "@playwright/test";
import { adminSession } from "./catalog-db";

test("an admin hides a model, edits its price and discount, and the public catalog follows", async ({
  page,
  context,
  request,
  baseURL,
}) => {
  const token = await adminSession();
  await context.addCookies([{ name: "authjs.session-token", value: token, url: baseURL! }]);
  await page.goto("/dashboard/admin/models?search=wizper");
  const row = page.locator('tr[data-model-id="fal-ai/wizper"]');
  await expect(row).toBeVisible();

  await row.getByRole("button", { name: "Hide" }).click();
  await expect(row.getByText("Hidden")).toBeVisible();
  expect((await request.get("/models/fal-ai/wizper")).status()).toBe(404);
  await row.getByRole("button", { name: "Show" }).click();
  await expect(row.getByText("Visible")).toBeVisible();
  expect((await request.get("/models/fal-ai/wizper")).status()).toBe(200);

  // The admin edits the price before the discount; what is charged follows from the discount.
  await row.getByTitle("Edit price and discount").click();
  await row.getByLabel("Price before discount, ₽").fill("0.00035");
  await row.getByLabel("Unit").selectOption("image");
  await row.getByLabel("Discount, %").fill("20");
  await row.getByRole("button", { name: "Save" }).click();
  await expect(row).toContainText("0.00028 ₽ per image");
  await expect(row).toContainText("−20%");
  let card = await (await request.get("/models/fal-ai/wizper")).json();
  expect(card).toMatchObject({ priceRub: 0.00028, priceUnit: "image", discountPercent: 20, originalPriceRub: 0.00035 });

  // A new discount keeps the price before it.
  await row.getByTitle("Edit price and discount").click();
  await expect(row.getByLabel("Price before discount, ₽")).toHaveValue("0.00035");
  await row.getByLabel("Discount, %").fill("50");
  await row.getByRole("button", { name: "Save" }).click();
  await expect(row).toContainText("−50%");
  card = await (await request.get("/models/fal-ai/wizper")).json();
  expect(card).toMatchObject({ priceRub: 0.000175, discountPercent: 50, originalPriceRub: 0.00035 });

  await row.getByRole("button", { name: "Sync schema" }).click();
  await expect(row.getByRole("button", { name: "Sync schema" })).toBeEnabled();
  await expect(row).not.toContainText("never");

  // The example output: the simulator's by default; an admin's image replaces it on the pages.
  const example = row.getByTestId("admin-example");
  await expect(example).toHaveAttribute("src", "/examples/fal-ai/wizper");
  await row.getByRole("button", { name: "Set example image" }).click();
  await row.getByLabel("Example image URL").fill("/examples/fal-ai/flux/schnell");
  await row.getByRole("button", { name: "Save" }).click();
  // A path of the app is stored as it is; the catalog's JSON gives it as an absolute URL.
  await expect(example).toHaveAttribute("src", /\/examples\/fal-ai\/flux\/schnell$/);
  await page.goto("/catalog/fal-ai/wizper");
  const shown = page.getByTestId("model-example");
  await expect(shown).toHaveAttribute("src", /\/examples\/fal-ai\/flux\/schnell$/);
  await expect(shown).toHaveJSProperty("complete", true);
  expect(await shown.evaluate((el: HTMLImageElement) => el.naturalWidth)).toBe(480);
  await expect(page.getByTestId("model-example-figure")).toContainText("Example output");
  await page.goBack();
  await row.getByRole("button", { name: "Set example image" }).click();
  await row.getByRole("button", { name: "Use the simulator's" }).click();
  await expect(example).toHaveAttribute("src", "/examples/fal-ai/wizper");
});

test("an admin rewrites a model's Russian description: the Russian pages read it, and a schema sync keeps it", async ({
  page,
  context,
  baseURL,
}) => {
  const token = await adminSession();
  await context.addCookies([
    { name: "authjs.session-token", value: token, url: baseURL! },
    { name: "gw_locale", value: "ru", url: baseURL! },
  ]);
  const text = `Расшифровка длинных записей, описание от администратора ${Date.now()}.`;
  const post = (data: object) => page.request.post("/admin/models", { data });
  expect((await post({ modelId: "fal-ai/wizper", descriptionRu: text })).status()).toBe(201);
  expect((await page.request.post("/admin/models/sync", { data: { modelId: "fal-ai/wizper" } })).status()).toBe(200);
  await page.goto("/catalog/fal-ai/wizper");
  await expect(page.getByTestId("model-description")).toHaveText(text);
  await page.goto("/catalog?search=wizper&includeCommunity=true");
  await expect(page.getByTestId("model-grid").getByTestId("model-description").first()).toHaveText(text);
  // null gives the model back its source's description on the next sync.
  expect((await post({ modelId: "fal-ai/wizper", descriptionRu: null })).ok()).toBe(true);
  expect((await page.request.post("/admin/models/sync", { data: { modelId: "fal-ai/wizper" } })).status()).toBe(200);
  await page.goto("/catalog/fal-ai/wizper");
  await expect(page.getByTestId("model-description")).toHaveText(/^Whisper v3, ускоренный fal/);
});

test("the admin page and API refuse visitors without an admin session", async ({ page, request }) => {
  await page.goto("/dashboard/admin/models");
  await expect(page).toHaveURL(/\/signin\?callbackUrl=/);
  expect((await request.get("/admin/models")).status()).toBe(401);
});
