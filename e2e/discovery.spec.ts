import { expect, test, type Page, type Request } from "@playwright/test";
import { attachPageShot } from "./page-shots";
import { grantRubles, sessionUser } from "./page-fit";
import { userNav } from "../components/dashboard/nav";

/**
 * Finding a model (issue 40, item 7 and the smaller points): "cheapest first" by what a typical
 * run costs, shown beside the unit price with how often the model runs; search as you type; a skip
 * link to the models; the header lined up with the page; the landing page's outputs and MCP
 * command; prefetching only the likely links; the language switch saying it is working.
 */

const WIDTHS = [
  { width: 1366, height: 900 },
  { width: 390, height: 844 },
];
const LOCALES = {
  en: {
    sort: "Cheapest first",
    typical: /^≈ [\d.,]+\s₽ a typical run$/,
    activity: /(\d[\d,]* runs?|No runs yet)/,
    skip: "Skip to the models",
  },
  ru: {
    sort: "Сначала дешёвые",
    typical: /^≈ [\d\s,]+\s₽ за обычный запуск$/,
    activity: /(\d[\d\s]* запуск|Ещё не запускали)/,
    skip: "Перейти к моделям",
  },
} as const;

async function inLocale(page: Page, baseURL: string, locale: "en" | "ru") {
  await page.context().addCookies([{ name: "gw_locale", value: locale, url: baseURL }]);
}

/** The left edge of the header's logo and of the page's content (its first heading), in CSS pixels. */
async function edges(page: Page, content = page.getByRole("heading", { level: 1 })) {
  const logo = await page.getByRole("banner").getByRole("link").first().boundingBox();
  const heading = await content.boundingBox();
  return { logo: Math.round(logo!.x), heading: Math.round(heading!.x) };
}

for (const viewport of WIDTHS) {
  for (const locale of ["en", "ru"] as const) {
    test(`cheapest first orders by a typical run's cost, shown on each card (${viewport.width} px, ${locale})`, async ({
      page,
      baseURL,
    }) => {
      await page.setViewportSize(viewport);
      await inLocale(page, baseURL!, locale);
      const words = LOCALES[locale];
      await page.goto("/catalog?sort=price_asc&includeCommunity=true");
      await expect(page.getByRole("combobox", { name: locale === "en" ? "Sort" : "Сортировка" })).toHaveValue("price_asc");
      await expect(page.getByRole("option", { name: words.sort })).toHaveCount(1);

      // The page lists what the API lists for the same query: by the typical run's cost.
      const api = await (await page.request.get("/models?sort=price_asc&includeCommunity=true&limit=24")).json();
      const costs: number[] = api.items.map((m: { typicalCostRub: number }) => m.typicalCostRub);
      expect(costs).toEqual([...costs].sort((a, b) => a - b));
      expect(new Set(api.items.map((m: { priceUnit: string }) => m.priceUnit)).size).toBeGreaterThan(1);
      const grid = page.getByTestId("model-grid");
      const hrefs = await grid.getByRole("link").evaluateAll((links) => links.map((a) => a.getAttribute("href")));
      expect(hrefs).toEqual(api.items.map((m: { modelId: string }) => `/catalog/${m.modelId}`));

      // Each card: the unit price, the typical run's cost beside it, and how often the model runs.
      const first = grid.getByRole("listitem").first();
      await expect(first.getByTestId("unit-price")).toBeVisible();
      await expect(first.getByTestId("typical-cost")).toHaveText(words.typical);
      await expect(first.getByTestId("model-activity")).toHaveText(words.activity);
      for (const text of await grid.getByTestId("typical-cost").allInnerTexts()) expect(text).toMatch(words.typical);

      // The header's logo and the page line up.
      const catalog = await edges(page);
      expect(catalog.logo).toBe(catalog.heading);
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      await attachPageShot(page, `catalog-${viewport.width}-${locale}`);

      await page.goto("/catalog/fal-ai/flux/dev");
      // A model page starts with its breadcrumb (the title sits beside the example on a wide screen).
      const model = await edges(page, page.getByRole("main").getByRole("navigation").first());
      expect(model.logo).toBe(model.heading);
    });
  }
}

test("a card's runs and typical run time are this gateway's own", async ({ page, context, baseURL }) => {
  const id = "fal-ai/flux/schnell";
  const runsOf = async () =>
    ((await (await page.request.get(`/models?search=${id}`)).json()).items as { modelId: string; runs: number }[]).find(
      (m) => m.modelId === id,
    )!.runs;
  const before = await runsOf();
  const user = await sessionUser(context, baseURL!);
  grantRubles(user.userId, 5);
  expect((await page.request.post(`/run/${id}`, { data: { prompt: "a counted kite", image_size: "square" } })).status()).toBe(200);
  // Counted in memory and written every couple of seconds (lib/generation/popularity.ts).
  await expect.poll(runsOf, { timeout: 15_000 }).toBeGreaterThan(before);
  const count = await runsOf();
  await page.goto(`/catalog?search=${encodeURIComponent(id)}`);
  const card = page
    .getByTestId("model-grid")
    .getByRole("listitem")
    .filter({ has: page.locator(`a[href="/catalog/${id}"]`) });
  await expect(card.getByTestId("model-activity")).toHaveText(new RegExp(`^${count.toLocaleString("en")} runs? · ~.+ a run$`));
});

test("search filters as it is typed, without leaving the field", async ({ page }) => {
  await page.goto("/catalog");
  const search = page.getByRole("searchbox", { name: "Search models" });
  await search.pressSequentially("kontext", { delay: 40 });
  await expect(page).toHaveURL(/[?&]search=kontext(&|$)/);
  const grid = page.getByTestId("model-grid");
  await expect(grid.getByRole("heading", { name: "FLUX.1 Kontext [pro]" })).toBeVisible();
  await expect(grid.getByRole("heading", { name: "FLUX.1 [dev]", exact: true })).toHaveCount(0);
  await expect(search).toBeFocused();
  await expect(search).toHaveValue("kontext");

  // Emptied, the list is whole again and the URL holds no empty search.
  await search.fill("");
  await expect(page).toHaveURL(/\/catalog$/);
  await expect(grid.getByRole("heading", { name: "FLUX.1 [dev]", exact: true })).toBeVisible();
});

for (const locale of ["en", "ru"] as const) {
  test(`a skip link reaches the first model in two key presses (${locale})`, async ({ page, baseURL }) => {
    await inLocale(page, baseURL!, locale);
    await page.goto("/catalog");
    await page.keyboard.press("Tab");
    const skip = page.getByRole("link", { name: LOCALES[locale].skip });
    await expect(skip).toBeFocused();
    await expect(skip).toBeVisible();
    await page.keyboard.press("Enter");
    await page.keyboard.press("Tab");
    const firstModel = page.getByTestId("model-grid").getByRole("link").first();
    await expect(firstModel).toBeFocused();
  });
}

for (const viewport of WIDTHS) {
  for (const locale of ["en", "ru"] as const) {
    test(`the landing page shows outputs and the whole MCP command (${viewport.width} px, ${locale})`, async ({ page, baseURL }) => {
      await page.setViewportSize(viewport);
      await inLocale(page, baseURL!, locale);
      await page.goto("/");
      const outputs = page.getByRole("region", { name: locale === "en" ? "What people make here" : "Что здесь создают" });
      const examples = outputs.getByTestId("model-example");
      await expect(examples).toHaveCount(3);
      for (const img of await examples.all()) {
        await img.scrollIntoViewIfNeeded();
        await expect(img).toHaveJSProperty("complete", true);
        expect(await img.evaluate((el: HTMLImageElement) => el.naturalWidth)).toBeGreaterThan(0);
      }
      const command = page.getByTestId("mcp-claude-code");
      await expect(command).toContainText("claude mcp add");
      // Nothing of it hides past the edge: the command wraps instead of scrolling.
      expect(await command.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
      const box = (await command.boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(viewport.width);
      const home = await edges(page);
      expect(home.logo).toBe(home.heading);
    });
  }
}

test("the catalog prefetches the likely pages, not every link", async ({ page }) => {
  await page.setViewportSize({ width: 1366, height: 900 });
  const prefetched = new Set<string>();
  page.on("request", (r) => {
    const h = r.headers();
    if (h["next-router-prefetch"] || h["next-router-segment-prefetch"]) prefetched.add(new URL(r.url()).pathname);
  });
  await page.goto("/catalog");
  await page.waitForLoadState("networkidle");
  // Prefetching still works where it helps (the first cards): it starts once the page has hydrated
  // with them in view, which on a loaded machine comes after the network first went idle, so it is
  // waited for before scrolling them away, not sampled.
  await expect.poll(() => [...prefetched].filter((p) => p.startsWith("/catalog/")).length, { timeout: 15_000 }).toBeGreaterThan(0);
  await page.mouse.wheel(0, 4000);
  await page.waitForLoadState("networkidle");
  const cards = await page.getByTestId("model-grid").getByRole("link").count();
  expect(cards).toBe(24);
  await page.waitForLoadState("networkidle");
  await test.info().attach("prefetched.json", { body: JSON.stringify([...prefetched], null, 2), contentType: "application/json" });
  // The first few models, the header's pages and the next page at most: not the 24 cards and the filters.
  expect([...prefetched].filter((p) => p.startsWith("/catalog/")).length).toBeLessThanOrEqual(3);
  expect(prefetched.size).toBeLessThanOrEqual(10);
});

test("the language switch says it is working until the page is in the new language", async ({ page }) => {
  await page.goto("/catalog");
  const switcher = page.getByTestId("locale-switcher");
  // Hold the switch's server action until the pending state has been seen.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route("**/*", async (route) => {
    if (route.request().method() === "POST" && route.request().headers()["next-action"]) await held;
    await route.continue();
  });
  await switcher.getByRole("button", { name: "Русский" }).click();
  await expect(page.getByTestId("locale-status")).toHaveText("Switching language…");
  await expect(switcher).toHaveAttribute("aria-busy", "true");
  await expect(switcher.getByRole("button", { name: "Русский" })).toBeDisabled();
  release();
  await expect(page.locator("html")).toHaveAttribute("lang", "ru");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Модели");
  await expect(page.getByTestId("locale-status")).toHaveText("");
  await expect(switcher).toHaveAttribute("aria-busy", "false");
});

/**
 * Pages a visit prefetched (path and query), once the navigation's own prefetches have come back:
 * the dashboard keeps a stream open, so "network idle" never comes; `settled` is a path every
 * visit prefetches, and prefetches start together, when their links come into view.
 */
async function prefetchesOf(page: Page, path: string, settled: string) {
  const isPrefetch = (r: Request) => Boolean(r.headers()["next-router-prefetch"] || r.headers()["next-router-segment-prefetch"]);
  const seen = new Set<string>();
  const onRequest = (r: Request) => {
    if (!isPrefetch(r)) return;
    const url = new URL(r.url());
    url.searchParams.delete("_rsc");
    seen.add(url.pathname + url.search);
  };
  page.on("request", onRequest);
  const done = page.waitForResponse((r) => new URL(r.url()).pathname === settled && isPrefetch(r.request()));
  await page.goto(path);
  await done;
  await page.mouse.wheel(0, 4000);
  // Links scrolled into view prefetch on the next frames; the settled path is long back by then.
  await page.waitForTimeout(1500);
  page.off("request", onRequest);
  await test.info().attach(`prefetched-${path.replaceAll("/", "_")}.json`, {
    body: JSON.stringify([...seen].sort(), null, 2),
    contentType: "application/json",
  });
  return [...seen];
}

test("the overview prefetches its navigation, not each run, window or model tag", async ({ page, context, baseURL }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1366, height: 900 });
  const user = await sessionUser(context, baseURL!);
  grantRubles(user.userId, 20);
  for (const prompt of ["лодка", "a kite", "a lamp"]) {
    expect((await page.request.post("/run/fal-ai/flux/schnell", { data: { prompt, image_size: "square" } })).status()).toBe(200);
  }
  const overview = await prefetchesOf(page, "/dashboard", "/dashboard/keys");
  // The sidebar's pages (the primary navigation) are fetched ahead: a click on one is instant.
  for (const item of userNav.filter((i) => i.href !== "/dashboard")) expect(overview).toContain(item.href);
  // The recent runs' pages and the spend window's other tab are not: a visitor opens one of them, if any.
  expect(overview.filter((p) => p.startsWith("/dashboard/activity/"))).toEqual([]);
  expect(overview.filter((p) => p.includes("spend="))).toEqual([]);
  // The navigation, the header's few pages: 29 before this was asked for.
  expect(overview.length).toBeLessThanOrEqual(userNav.length + 4);

  const activity = await prefetchesOf(page, "/dashboard/activity", "/dashboard/keys");
  expect(activity.filter((p) => p.startsWith("/dashboard/activity/"))).toEqual([]);

  // A model page: its tags and category are catalog queries a visitor seldom follows.
  const model = await prefetchesOf(page, "/catalog/fal-ai/flux/dev", "/catalog");
  expect(model.filter((p) => p.startsWith("/catalog?"))).toEqual([]);
  expect(model.length).toBeLessThanOrEqual(6);
});
