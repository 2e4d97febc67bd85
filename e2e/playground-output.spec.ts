import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Locator, type Page, type TestInfo } from "@playwright/test";
import { formatMoney } from "../lib/i18n/format";
import { withAppDb } from "./catalog-db";
import { signedInUser } from "./generation-db";
import { balanceOf, MODEL } from "./playground-helpers";

/**
 * Issue 40, items 1, 3 and 6: the playground's output beside the form and in view, one status,
 * the whole log, Cancel while the job can be cancelled; failures in words, with what was charged,
 * a failing provider that lets the person go on, a rate limit that says why; the form checking
 * itself from the schema. At a desktop (1366 × 900) and a phone (390 × 844), in English and Russian.
 */

const DESKTOP = { width: 1366, height: 900 };
const PHONE = { width: 390, height: 844 };

async function attachShot(page: Page, testInfo: TestInfo, name: string) {
  await testInfo.attach(name, { body: await page.screenshot({ fullPage: true }), contentType: "image/png" });
}

/** The element lies wholly inside the viewport (nothing of it below the fold or above the top); or only its start, with `start`. */
async function expectInView(page: Page, locator: Locator, { start = false } = {}) {
  const box = (await locator.boundingBox())!;
  const viewport = page.viewportSize()!;
  expect(box.y, "top edge on screen").toBeGreaterThanOrEqual(0);
  if (start) expect(box.y + 40, "its first line on screen").toBeLessThanOrEqual(viewport.height);
  else expect(box.y + box.height, "bottom edge on screen").toBeLessThanOrEqual(viewport.height);
}

/** Serious and critical axe findings (WCAG 2.x A and AA), as e2e/a11y.spec.ts counts them, on the playground as it is now. */
async function expectAxeClean(page: Page) {
  const result = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  expect(result.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id)).toEqual([]);
}

async function expectNoSidewaysScroll(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
}

/** The provider's whole log of a request, as the API answers it. */
async function apiLogs(page: Page, requestId: string): Promise<string[]> {
  const res = await page.request.get(`/queue/${MODEL}/requests/${requestId}/status?logs=1`);
  expect(res.status()).toBe(200);
  return ((await res.json()) as { logs: { message: string }[] }).logs.map((l) => l.message);
}

for (const [label, viewport] of [
  ["desktop", DESKTOP],
  ["phone", PHONE],
] as const) {
  test(`${label}: the output is in view while the run goes on and when it ends, with one status and the whole log`, async ({
    page,
    context,
    baseURL,
  }, testInfo) => {
    await page.setViewportSize(viewport);
    await signedInUser(context, baseURL!, { rub: 20 });
    await page.goto(`/catalog/${MODEL}`);
    const output = page.getByTestId("run-output");
    await expect(page.getByTestId("run-idle")).toBeVisible();
    // On a phone the output comes right under Run; on a desktop it is beside the form.
    const run = (await page.getByTestId("run-button").boundingBox())!;
    const out = (await output.boundingBox())!;
    if (label === "phone") expect(out.y).toBeGreaterThan(run.y);
    else expect(out.x).toBeGreaterThan(run.x + run.width);

    await page.locator("#field-prompt").fill("a slow comet [latency:8000]");
    await page.locator("#field-image_size").selectOption("square");
    await page.getByTestId("run-button").click();
    const status = page.getByTestId("run-status");
    await expect(status).toHaveAttribute("data-phase", /^(queued|in_progress)$/);
    // One status: the badge's word is not repeated beside it ("Running running").
    await expect(page.getByTestId("run-status-line")).toHaveText(/^(?!.*running.*running)/is);
    // Cancel while the job can be cancelled (queued); once it runs, the page says why it cannot.
    await expect(page.getByTestId("run-cancel").or(page.getByTestId("run-cannot-cancel"))).toBeVisible();
    await expectInView(page, status);
    await attachShot(page, testInfo, `playground-mid-run-${label}`);

    await expect(status).toHaveAttribute("data-phase", "completed", { timeout: 30_000 });
    const image = page.getByTestId("result-image").locator("img");
    await expect(image).toHaveJSProperty("complete", true);
    await expectInView(page, image);
    await expectInView(page, status);
    await expect(page.getByTestId("run-cost")).toBeVisible();
    await expectNoSidewaysScroll(page);

    // The whole log, the last line included (not stopped at "Step 2/4" while the badge says Completed).
    const requestId = (await page.getByTestId("run-request-id").textContent())!;
    const logs = await apiLogs(page, requestId);
    // (The API keeps the lines the gateway saw when it polled; a job ended by the provider's webhook may have none.)
    await expect(page.getByTestId("run-logs").locator("li")).toHaveCount(logs.length);
    if (logs.length > 0) await expect(page.getByTestId("run-logs").locator("li").last()).toContainText(logs.at(-1)!);
    await attachShot(page, testInfo, `playground-finished-${label}`);
  });
}

test("a failing provider: within seconds the page says so in words, lets the person go on, and Cancel refunds the queued job", async ({
  page,
  context,
  baseURL,
}) => {
  await page.setViewportSize(DESKTOP);
  await signedInUser(context, baseURL!, { rub: 20 });
  await page.goto(`/catalog/${MODEL}`);
  const before = await balanceOf(page);
  await page.locator("#field-prompt").fill("a storm at sea [fail:provider]");
  await page.locator("#field-image_size").selectOption("square");
  await page.getByTestId("run-button").click();
  await expect(page.getByTestId("run-status")).toHaveAttribute("data-phase", "queued");
  // Queued: the job can still be cancelled, and says so with the button.
  await expect(page.getByTestId("run-cancel")).toBeVisible();

  // After the first failed attempt (not after the retries' minute): words, the money, a way on.
  const notice = page.getByTestId("run-retrying");
  await expect(notice).toContainText("The provider is failing right now. The gateway keeps retrying in the background", {
    timeout: 10_000,
  });
  await expect(notice).toContainText("Nothing is charged unless it succeeds");
  const requestId = (await page.getByTestId("run-request-id").textContent())!;
  await expect(notice.getByTestId("run-page-link")).toHaveAttribute("href", `/dashboard/activity/${requestId}`);
  await expect(page.getByTestId("run-button")).toBeEnabled();
  await expect(page.getByTestId("run-button")).toHaveText("Run again");

  await page.getByTestId("run-cancel").click();
  await expect(page.getByTestId("run-status")).toHaveAttribute("data-phase", "cancelled");
  await expect(page.getByTestId("run-cost")).toHaveText(
    /^Nothing was charged: the \d+\.\d+\s₽ reserved for this run went back to your balance\.$/,
  );
  expect(await balanceOf(page)).toBe(before);
  await expect(page.getByTestId("run-balance")).toHaveText(formatMoney(before, "balance", "en"));
  await expect(page.getByTestId("run-retrying")).toHaveCount(0);
});

test("a failed generation reads as a sentence with the code in small print and says it was refunded", async ({
  page,
  context,
  baseURL,
}) => {
  await signedInUser(context, baseURL!, { rub: 20 });
  await page.goto(`/catalog/${MODEL}`);
  await page.locator("#field-prompt").fill("a forbidden fox [fail:generation]");
  await page.locator("#field-image_size").selectOption("square");
  await page.getByTestId("run-button").click();
  await expect(page.getByTestId("run-status")).toHaveAttribute("data-phase", "failed", { timeout: 30_000 });
  const failure = page.getByTestId("run-failure");
  await expect(failure.getByTestId("run-failure-sentence")).toHaveText("The model could not produce a result for this input.");
  await expect(failure.getByTestId("error-small-print")).toContainText("generation_failed");
  await expect(page.getByTestId("run-cost")).toContainText("Nothing was charged");
  await expectAxeClean(page);
});

test("a rate-limited run says which limit and when to try again, and that nothing was charged", async ({ page, context, baseURL }) => {
  const { userId } = await signedInUser(context, baseURL!, { rub: 20 });
  // The user's generation window, full: 100 runs in the last minutes (the spec's limit per hour).
  await withAppDb(async (sql) => {
    const t = Date.now() - 60_000;
    await sql`insert into rate_limit_windows (key, times, counts, updated_at) values (${`user-gen:${userId}`}, ${`{${t}}`}::bigint[], ${"{100}"}::int[], now())
      on conflict (key) do update set times = excluded.times, counts = excluded.counts`;
  });
  await page.goto(`/catalog/${MODEL}`);
  await page.locator("#field-prompt").fill("one more");
  await page.getByTestId("run-button").click();
  const error = page.getByTestId("run-error");
  await expect(error).toHaveAttribute("data-code", "rate_limited");
  await expect(error.getByTestId("run-error-sentence")).toHaveText(
    "Too many runs for now. Your account may start 100 runs per hour, and that many have started within the last hour.",
  );
  await expect(error.getByTestId("run-error-retry")).toHaveText(/^Try again in \d+ (s|min) \(at \d\d:\d\d:\d\d( [AP]M)?\)\.$/);
  await expect(error.getByTestId("run-error-money")).toHaveText("Nothing was charged.");
  await expect(error.getByTestId("error-small-print")).toContainText("rate_limited");
});

test("the form checks itself: Required only after trying, at the field, nothing sent; readable sizes; a low balance before Run", async ({
  page,
  context,
  baseURL,
}) => {
  await signedInUser(context, baseURL!);
  await page.goto(`/catalog/${MODEL}`);
  const prompt = page.locator("#field-prompt");
  // Before any attempt: no "Required" anywhere, the field not marked.
  await expect(page.getByTestId("field-error")).toHaveCount(0);
  await expect(prompt).not.toHaveAttribute("aria-invalid", "true");
  await expect(page.locator("#field-image_size option[value=square_hd]")).toHaveText("Square HD (1024×1024)");
  await expect(page.locator("#field-image_size option[value=landscape_16_9]")).toHaveText("Landscape 16:9 (1024×576)");
  // A balance below the estimate is said before Run, with the top-up link.
  await expect(page.getByTestId("low-balance")).toContainText("Your balance, 0.00 ₽, is below this run's estimated price");
  await expect(page.getByTestId("low-balance-topup")).toHaveAttribute("href", "/dashboard/billing");

  const sent: string[] = [];
  page.on("request", (r) => r.method() === "POST" && r.url().includes("/queue/") && sent.push(r.url()));
  await page.getByTestId("run-button").click();
  await expect(prompt).toHaveAttribute("aria-invalid", "true");
  await expect(prompt).toBeFocused();
  const message = page.locator("#field-prompt-error");
  await expect(message).toHaveText("Required: fill this in to run the model");
  await expect(prompt).toHaveAttribute("aria-describedby", "field-prompt-error");
  await expect(page.getByTestId("run-blocked")).toHaveText("Fix the marked field to run the model.");
  await expect(page.getByTestId("run-error")).toHaveCount(0);
  await expect(page.getByTestId("run-status")).toHaveCount(0);
  expect(sent).toEqual([]);
  await expectAxeClean(page);

  // A number out of its bounds is marked as it is typed.
  await page.locator("#field-num_images").fill("9");
  await expect(page.locator("#field-num_images-error")).toHaveText("Enter 4 or less.");
  await page.locator("#field-num_images").fill("1");
  await prompt.fill("a red fox");
  await expect(page.getByTestId("field-error")).toHaveCount(0);
  await expect(page.getByTestId("run-blocked")).toHaveCount(0);
});

test.describe("in Russian", () => {
  test.use({ locale: "ru-RU" });

  test("the form's labels, its checks, the low balance and a failing provider read in Russian", async ({ page, context, baseURL }) => {
    await page.setViewportSize(PHONE);
    await signedInUser(context, baseURL!);
    await page.goto(`/catalog/${MODEL}`);
    await expect(page.locator("#field-image_size option[value=square_hd]")).toHaveText("Квадрат HD (1024×1024)");
    await expect(page.getByTestId("low-balance")).toContainText("Ваш баланс, 0,00 ₽, меньше оценки стоимости запуска");
    await expect(page.getByTestId("low-balance-topup")).toHaveText("Пополнить баланс");
    await page.getByTestId("run-button").click();
    await expect(page.locator("#field-prompt-error")).toHaveText("Обязательное поле: заполните его, чтобы запустить модель");
    await expect(page.getByTestId("run-idle")).toContainText("Заполните форму");
    await expectNoSidewaysScroll(page);
  });

  test("a failed generation in Russian words; the server's own, in small print, marked as English", async ({ page, context, baseURL }) => {
    await page.setViewportSize(DESKTOP);
    await signedInUser(context, baseURL!, { rub: 20 });
    await page.goto(`/catalog/${MODEL}`);
    await page.locator("#field-prompt").fill("лиса [fail:generation]");
    await page.getByTestId("run-button").click();
    await expect(page.getByTestId("run-status")).toHaveAttribute("data-phase", "failed", { timeout: 30_000 });
    await expect(page.getByTestId("run-failure-sentence")).toHaveText("Модель не смогла получить результат для этих данных.");
    const small = page.getByTestId("error-small-print");
    await expect(small).toContainText("generation_failed");
    await expect(small.locator('[lang="en"]')).toContainText("Generation failed");
    await expect(page.getByTestId("run-cost")).toHaveText(/^Ничего не списано: зарезервированные \d+,\d+\s₽ вернулись на баланс\.$/);
    await expectInView(page, page.getByTestId("run-failure"));
  });

  test("a failing provider and a cancel, in words", async ({ page, context, baseURL }) => {
    await page.setViewportSize(PHONE);
    await signedInUser(context, baseURL!, { rub: 20 });
    await page.goto(`/catalog/${MODEL}`);
    await page.locator("#field-prompt").fill("шторм [fail:provider]");
    await page.getByTestId("run-button").click();
    const notice = page.getByTestId("run-retrying");
    await expect(notice).toContainText("Провайдер сейчас сбоит. Шлюз продолжает попытки в фоне", { timeout: 10_000 });
    await expect(notice.getByTestId("run-page-link")).toHaveText("Следить на странице запуска");
    await expectInView(page, notice, { start: true });
    await page.getByTestId("run-cancel").click();
    await expect(page.getByTestId("run-status")).toHaveAttribute("data-phase", "cancelled");
    await expect(page.getByTestId("run-cost")).toHaveText(/^Ничего не списано: зарезервированные \d+,\d+\s₽ вернулись на баланс\.$/);
    await expectNoSidewaysScroll(page);
  });
});
