import { expect, test, type Page } from "@playwright/test";
import { DESKTOP, grantRubles, expectFits, expectModelIdsWhole, expectNoSidewaysScroll, PHONE, sessionUser } from "./page-fit";

const MODEL = "fal-ai/flux/schnell";

/** Three runs through the API with the page's session: a completed sync run, a failed one and a queued one. */
async function threeRuns(page: Page) {
  const ok = await page.request.post(`/run/${MODEL}`, { data: { prompt: "a paper boat on a pond", image_size: "square" } });
  expect(ok.status()).toBe(200);
  const failed = await page.request.post(`/run/${MODEL}`, { data: { prompt: "a storm [fail:generation]", image_size: "square" } });
  expect(failed.status()).toBeGreaterThanOrEqual(400);
  const queued = await page.request.post(`/queue/${MODEL}`, { data: { prompt: "a lighthouse", image_size: "square" } });
  expect(queued.ok()).toBe(true);
  const { request_id } = (await queued.json()) as { request_id: string };
  await expect(async () => {
    const status = await page.request.get(`/queue/${MODEL}/requests/${request_id}/status`);
    expect(((await status.json()) as { status: string }).status.toUpperCase()).toBe("COMPLETED");
  }).toPass({ timeout: 20_000 });
  return { okRequest: ((await ok.json()) as { request_id: string }).request_id, queuedRequest: request_id };
}

const words = {
  en: { sync: "Sync run", queued: "Queued run", source: "Dashboard", failedCard: "Failed, nothing charged", again: "Run again" },
  ru: {
    sync: "Синхронный запуск",
    queued: "Запуск в очереди",
    source: "Кабинет",
    failedCard: "Ошибка, ничего не списано",
    again: "Запустить снова",
  },
} as const;

for (const lang of ["en", "ru"] as const) {
  test.describe(`activity you can scan (${lang})`, () => {
    test.use({ locale: lang === "ru" ? "ru-RU" : "en-US" });

    test("the list shows thumbnails, human words and whole model ids, and fits at 1366 and 390 px", async ({ page, context, baseURL }) => {
      test.setTimeout(90_000);
      const user = await sessionUser(context, baseURL!);
      grantRubles(user.userId, 20);
      const { okRequest, queuedRequest } = await threeRuns(page);
      const w = words[lang];

      for (const viewport of [DESKTOP, PHONE]) {
        await page.setViewportSize(viewport);
        await page.goto("/dashboard/activity");
        const rows = page.getByTestId("activity-row");
        await expect(rows).toHaveCount(3);
        const ok = page.locator(`[data-testid="activity-row"][data-request-id="${okRequest}"]`);
        const thumb = ok.getByTestId("run-thumbnail").locator("img");
        await expect(thumb).toHaveJSProperty("complete", true);
        expect(await thumb.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
        await expect(ok.getByTestId("activity-operation")).toHaveText(w.sync);
        await expect(
          page.locator(`[data-testid="activity-row"][data-request-id="${queuedRequest}"]`).getByTestId("activity-operation"),
        ).toHaveText(w.queued);
        await expect(ok).toContainText(w.source);
        // The words the list used to print raw are gone.
        for (const raw of ["queue", "dashboard"]) await expect(page.getByRole("table")).not.toContainText(new RegExp(`\\b${raw}\\b`));
        await expectModelIdsWhole(page);
        await expectNoSidewaysScroll(page);
        if (viewport === DESKTOP) await expectFits(page.locator("main section").filter({ has: rows.first() }), "the activity card");
        for (const link of await rows.getByRole("link").all()) {
          const box = (await link.boundingBox())!;
          expect(box.x + box.width).toBeLessThanOrEqual(viewport.width);
        }
      }
    });

    test("the overview's failed run says so instead of a placeholder; its screenshot is attached", async ({
      page,
      context,
      baseURL,
    }, testInfo) => {
      test.setTimeout(90_000);
      const user = await sessionUser(context, baseURL!);
      grantRubles(user.userId, 20);
      await threeRuns(page);
      const w = words[lang];
      for (const viewport of [DESKTOP, PHONE]) {
        await page.setViewportSize(viewport);
        await page.goto("/dashboard");
        const failed = page.locator('[data-testid="recent-run"][data-status="failed"]');
        await expect(failed.getByTestId("run-thumbnail")).toHaveText(w.failedCard);
        for (const card of await page.getByTestId("recent-run").all()) {
          await expect(card.getByTestId("run-thumbnail")).not.toHaveText(/^(queue|run|generate)$/);
        }
        await expectModelIdsWhole(page);
        await expectNoSidewaysScroll(page);
        await testInfo.attach(`overview-${lang}-${viewport.width}`, {
          body: await page.screenshot({ fullPage: true }),
          contentType: "image/png",
        });
      }
    });

    test("Run again on a run's page opens the playground with that run's input", async ({ page, context, baseURL }) => {
      test.setTimeout(90_000);
      const user = await sessionUser(context, baseURL!);
      grantRubles(user.userId, 20);
      const { okRequest } = await threeRuns(page);
      await page.setViewportSize(DESKTOP);
      await page.goto("/dashboard/activity");
      await page.locator(`[data-testid="activity-row"][data-request-id="${okRequest}"]`).getByRole("link").last().click();
      await page.getByRole("link", { name: words[lang].again }).click();
      await expect(page).toHaveURL(new RegExp(`/catalog/${MODEL}\\?input=`));
      await expect(page.locator("#field-prompt")).toHaveValue("a paper boat on a pond");
      await expect(page.locator("#field-image_size")).toHaveValue("square");
    });
  });
}

test("the overview's chart labels stay readable on a phone", async ({ page, context, baseURL }) => {
  await sessionUser(context, baseURL!);
  await page.setViewportSize(PHONE);
  for (const spend of ["7d", "30d"]) {
    await page.goto(`/dashboard?spend=${spend}`);
    const labels = page.getByTestId("chart-axis").locator("span:visible");
    // Waited for, not sampled: the card may still be streaming in when the page's load fires.
    await expect(labels.nth(2)).toBeVisible();
    for (const label of await labels.all()) {
      const size = await label.evaluate((el) => parseFloat(getComputedStyle(el).fontSize));
      expect(size).toBeGreaterThanOrEqual(12);
    }
    // Neighbouring labels do not overlap.
    const boxes = await Promise.all((await labels.all()).map((l) => l.boundingBox()));
    for (let i = 1; i < boxes.length; i++) expect(boxes[i]!.x).toBeGreaterThan(boxes[i - 1]!.x + boxes[i - 1]!.width);
    await expectNoSidewaysScroll(page);
  }
});
