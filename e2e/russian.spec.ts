import { readFileSync } from "node:fs";
import { expect, test, type Page } from "@playwright/test";
import { DESKTOP, grantRubles, sessionUser } from "./page-fit";

type Tree = { [key: string]: string | Tree };
const read = (lang: string) => JSON.parse(readFileSync(`messages/${lang}.json`, "utf8")) as Tree;
const leaves = (tree: Tree): string[] => Object.values(tree).flatMap((v) => (typeof v === "string" ? [v] : leaves(v)));

/** A message's literal words: placeholders, ICU plurals and rich-text tags taken out. */
const literal = (message: string) => message.replace(/\{[^{}]*(\{[^{}]*\}[^{}]*)*\}/g, " ").replace(/<\/?\w+>/g, " ");
const wordsOf = (text: string) =>
  text
    .split(/\s+/)
    .map((token) => token.replace(/[^\p{L}\p{N}]+$/gu, ""))
    // Ids, addresses, paths (`/queue`), codes and numbers are not words of a language; neither are
    // acronyms (API, UTC). Judged before a leading `/` is trimmed, so a path is not taken for a word.
    .filter((token) => !/[@/_:0-9=<>{}[\]]/.test(token))
    .map((token) => token.replace(/^[^\p{L}\p{N}]+/gu, ""))
    .filter((word) => /^[A-Za-z][a-z]{2,}$/.test(word))
    .map((word) => word.toLowerCase());

const ruWords = new Set(leaves(read("ru")).flatMap((m) => wordsOf(literal(m))));
/**
 * English words of our own messages that no Russian message uses: any of them in a Russian page is
 * a string left untranslated. Names (brands, labs, models) and code are marked translate="no" on
 * the page; these few words are also names or product terms the Russian text keeps as they are.
 */
const ALLOWED = new Set(["gateway", "generation", "visa", "mastercard", "bearer", "authorization", "sandbox", "webhook", "webhooks"]);
const englishWords = new Set(
  leaves(read("en"))
    .flatMap((m) => wordsOf(literal(m)))
    .filter((w) => !ruWords.has(w) && !ALLOWED.has(w)),
);

/** Visible text of the page outside code, names marked translate="no", and form values. */
async function visibleTexts(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const skip =
      "script, style, code, pre, kbd, samp, textarea, [translate='no'], [aria-hidden='true'], svg title, [lang]:not([lang='ru'])";
    const out: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent?.trim();
      const parent = node.parentElement;
      if (!text || !parent || parent.closest(skip)) continue;
      const style = getComputedStyle(parent);
      if (style.display === "none" || style.visibility === "hidden") continue;
      out.push(text);
    }
    // Labels people read that are not text nodes.
    for (const el of document.querySelectorAll("[placeholder], [aria-label], img[alt], [title]")) {
      if (el.closest(skip)) continue;
      for (const attr of ["placeholder", "aria-label", "alt"]) {
        const value = el.getAttribute(attr)?.trim();
        if (value) out.push(value);
      }
    }
    // A name marked translate="no" stays a name where it recurs (an image's alt: "Пример результата FLUX.1 [dev] with LoRAs").
    const names = [...document.querySelectorAll("[translate='no']")].map((el) => el.textContent?.trim() ?? "").filter((n) => n.length > 2);
    return out.map((text) => names.reduce((t, name) => t.split(name).join(" "), text));
  });
}

async function englishOn(page: Page): Promise<string[]> {
  const found = new Set<string>();
  for (const text of await visibleTexts(page)) {
    const english = wordsOf(text).filter((w) => englishWords.has(w));
    if (english.length > 0) found.add(`${text.slice(0, 80)}  [${english.join(", ")}]`);
  }
  return [...found];
}

test.describe("a Russian visitor", () => {
  test.use({ locale: "ru-RU", viewport: DESKTOP });

  test("the check knows English from Russian", () => {
    // The words it looks for come from the English messages; a Russian message never trips it.
    expect(englishWords.has("queue")).toBe(true);
    expect(englishWords.has("details")).toBe(true);
    expect(wordsOf(literal("Запуск в очереди · fal-ai/flux/dev · 12 ₽"))).toEqual([]);
    expect(wordsOf("Details: queue").filter((w) => englishWords.has(w))).toEqual(["details", "queue"]);
  });

  test("reads no English on the dashboard and admin pages", async ({ page, context, baseURL }) => {
    test.setTimeout(120_000);
    const user = await sessionUser(context, baseURL!, { admin: true });
    grantRubles(user.userId, 20);
    expect((await page.request.post("/me/keys", { data: { name: "агент" } })).status()).toBe(201);
    const run = await page.request.post("/run/fal-ai/flux/schnell", { data: { prompt: "лодка", image_size: "square" } });
    expect(run.status()).toBe(200);
    await page.request.post("/run/fal-ai/flux/schnell", { data: { prompt: "шторм [fail:generation]", image_size: "square" } });

    const pages = [
      "/dashboard",
      "/dashboard?spend=30d",
      "/dashboard/keys",
      "/dashboard/usage",
      "/dashboard/activity",
      "/dashboard/billing",
      "/dashboard/profile",
      "/dashboard/sessions",
      "/dashboard/webhooks",
      "/dashboard/integrations",
      "/dashboard/admin",
      "/dashboard/admin/users",
      `/dashboard/admin/users/${user.userId}`,
      "/dashboard/admin/models",
      "/dashboard/admin/transactions",
      "/dashboard/admin/providers",
    ];
    const report: string[] = [];
    for (const path of pages) {
      await page.goto(path);
      await expect(page.locator("html")).toHaveAttribute("lang", "ru");
      for (const line of await englishOn(page)) report.push(`${path}: ${line}`);
    }
    // Each record's page: the finished run and the failed one.
    await page.goto("/dashboard/activity");
    for (const href of await page
      .getByTestId("activity-row")
      .getByRole("link")
      .evaluateAll((links) => links.map((a) => a.getAttribute("href")!))) {
      await page.goto(href);
      for (const line of await englishOn(page)) report.push(`${href}: ${line}`);
    }
    expect(report).toEqual([]);
  });

  test("reads the catalog's cards and each model's page in Russian, descriptions from the Russian overlay", async ({
    page,
    context,
    baseURL,
  }) => {
    test.setTimeout(180_000);
    const report: string[] = [];
    const check = async (path: string) => {
      await page.goto(path);
      await expect(page.locator("html")).toHaveAttribute("lang", "ru");
      for (const line of await englishOn(page)) report.push(`${path}: ${line}`);
    };

    // The cards read the overlay's description, as the API lists it for the same page.
    const api = (await (await page.request.get("/models?limit=24")).json()) as {
      items: { modelId: string; description: string; descriptionRu: string | null }[];
    };
    await check("/catalog");
    const grid = page.getByTestId("model-grid");
    const shown = await grid.getByTestId("model-description").allInnerTexts();
    expect(shown).toEqual(api.items.map((m) => m.descriptionRu ?? m.description));
    expect(api.items.filter((m) => m.descriptionRu).length).toBe(api.items.length);
    await check("/catalog?sort=price_asc");
    await check("/");

    // Every model of the first page, read by a visitor and by a signed-in user (who sees the run button and the balance).
    const models = api.items.map((m) => `/catalog/${m.modelId}`);
    for (const path of models) await check(path);
    const dev = api.items.find((m) => m.modelId === "fal-ai/flux/dev")!;
    await page.goto("/catalog/fal-ai/flux/dev");
    await expect(page.getByTestId("model-description")).toHaveText(dev.descriptionRu!);
    // Each fact reads as a term and its value.
    await expect(page.getByTestId("model-facts")).toHaveText(
      /^Лаборатория: Black Forest Labs\s*Семейство: FLUX\.1\s*Лицензия: Некоммерческая$/,
    );
    const user = await sessionUser(context, baseURL!);
    grantRubles(user.userId, 5);
    for (const path of models.slice(0, 6)) await check(path);
    expect(report).toEqual([]);
  });
});

test("an English visitor reads the English descriptions", async ({ page }) => {
  await page.setViewportSize(DESKTOP);
  const api = (await (await page.request.get("/models?limit=24")).json()) as { items: { description: string }[] };
  await page.goto("/catalog");
  await expect(page.locator("html")).toHaveAttribute("lang", "en");
  expect(await page.getByTestId("model-grid").getByTestId("model-description").allInnerTexts()).toEqual(
    api.items.map((m) => m.description),
  );
  await page.goto("/catalog/fal-ai/flux/dev");
  await expect(page.getByTestId("model-facts")).toHaveText(/^Lab: Black Forest Labs\s*Family: FLUX\.1\s*Licence: Non-commercial$/);
});
