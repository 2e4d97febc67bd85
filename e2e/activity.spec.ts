import { expect, test } from "@playwright/test";
import { withAppDb } from "./catalog-db";
import { signedInUser } from "./generation-db";
import { MODEL, runFromPlayground } from "./playground-helpers";

test("a playground run appears on the Activity page; its detail shows the image, the cost and the input", async ({
  page,
  context,
  baseURL,
}) => {
  await signedInUser(context, baseURL!, { rub: 50 });
  const requestId = await runFromPlayground(page, "a paper boat on a pond");
  const charged = (await page.getByTestId("run-charged").textContent())!;

  await page.goto("/dashboard");
  await page.getByRole("link", { name: "Activity" }).click();
  await expect(page).toHaveURL(/\/dashboard\/activity$/);
  const row = page.locator(`[data-testid="activity-row"][data-request-id="${requestId}"]`);
  await expect(row).toContainText(MODEL);
  await expect(row).toContainText("completed");
  await expect(row).toContainText(charged);

  // Filters live in the URL and narrow the list through GET /me/activity.
  await page.getByLabel("Status").selectOption("failed");
  await expect(page).toHaveURL(/status=failed/);
  await expect(page.getByTestId("activity-empty")).toBeVisible();
  await page.getByLabel("Status").selectOption("completed");
  await expect(row).toBeVisible();

  await row.getByRole("link", { name: "Details" }).click();
  await expect(page.getByTestId("activity-status")).toHaveText("completed");
  await expect(page.getByTestId("activity-cost")).toHaveText(charged);
  await expect(page.getByTestId("activity-duration")).not.toHaveText("—");
  // The output's image and the stored file both load from the service's own storage.
  for (const img of await page.locator('[data-testid="result-image"] img').all()) {
    await expect(img).toHaveJSProperty("complete", true);
    expect(await img.evaluate((el: HTMLImageElement) => el.naturalWidth)).toBe(512);
  }
  await expect(page.getByTestId("activity-assets").getByTestId("asset-row")).toHaveCount(1);
  const input = page.locator("section", { has: page.getByRole("heading", { name: "Input", exact: true }) });
  await expect(input).toContainText('"prompt": "a paper boat on a pond"');
  await expect(input).toContainText('"image_size": "square"');
});

test("another user's activity record is not found, exactly like a missing one", async ({ page, context, baseURL }) => {
  const someoneElse = crypto.randomUUID();
  const recordId = `act_${crypto.randomUUID()}`;
  await withAppDb(async (sql) => {
    await sql`insert into users (id, email) values (${someoneElse}, ${`other-${someoneElse}@example.test`})`;
    await sql`insert into activity (id, user_id, model_id, operation, credits, status) values (${recordId}, ${someoneElse}, ${MODEL}, 'queue', 100, 'completed')`;
  });
  await signedInUser(context, baseURL!);
  for (const id of [recordId, "act_does_not_exist"]) {
    const res = await page.goto(`/dashboard/activity/${id}`);
    expect(res?.status()).toBe(404);
  }
});

test("a job whose provider keeps refusing it is listed as retrying, with the attempt and the reason", async ({
  page,
  context,
  baseURL,
}) => {
  await signedInUser(context, baseURL!, { rub: 50 });
  // The simulator answers 503 to every submit: the job is retried with backoff (about half a minute).
  // The playground says so while the run waits in the queue.
  await page.goto(`/catalog/${MODEL}`);
  await page.locator("#field-prompt").fill("a storm at sea [fail:provider]");
  await page.locator("#field-image_size").selectOption("square");
  await page.getByTestId("run-button").click();
  await expect(page.getByTestId("run-status")).toHaveAttribute("data-phase", "queued");
  await expect(page.getByTestId("run-retrying")).toContainText(/Retrying: attempt [2-6] of 6\. The provider did not accept the job/, {
    timeout: 15_000,
  });
  const id = (await page.getByTestId("run-request-id").textContent())!;

  const run = page.locator(`[data-testid="in-flight-run"][data-request-id="${id}"]`);
  // The page is rendered when loaded: reload until the first attempt has failed.
  await expect(async () => {
    await page.goto("/dashboard/activity");
    await expect(run.getByTestId("activity-retrying")).toBeVisible({ timeout: 500 });
  }).toPass();
  await expect(run).toContainText(MODEL);
  await expect(run.getByTestId("activity-retrying")).toContainText(/retrying: attempt [2-6] of 6/);
  await expect(run.getByTestId("activity-retrying")).toContainText("The provider did not accept the job");

  await run.getByRole("link", { name: "Details" }).click();
  await expect(page.getByTestId("activity-status")).toHaveText("queued");
  await expect(page.getByTestId("activity-retrying")).toContainText(/retrying: attempt [2-6] of 6/);
  await expect(page.getByTestId("activity-retry-reason")).toContainText(/The provider did not accept the job: \d attempts? of 6 failed/);
});
