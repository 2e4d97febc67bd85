import AxeBuilder from "@axe-core/playwright";
import { expect, test, type BrowserContext } from "@playwright/test";
import { adminSession, withAppDb } from "./catalog-db";
import { keepPageShot } from "./page-shots";

/** A new admin signed in; answers the session token. */
async function signIn(context: BrowserContext, baseURL: string) {
  const token = await adminSession();
  await context.addCookies([{ name: "authjs.session-token", value: token, url: baseURL }]);
  return token;
}

test("an admin adds, orders, switches off and removes a model's routes, sees their margins and saves them", async ({
  page,
  context,
  baseURL,
}) => {
  await signIn(context, baseURL!);
  // A hidden model of our own, 0.05 ₽ per image at 10 % off: 0.045 ₽ charged.
  const modelId = `acme-e2e/${crypto.randomUUID().slice(0, 8)}/routes`;
  const created = await page.request.post("/admin/models", {
    data: {
      modelId,
      displayName: "Routes E2E",
      category: "text-to-image",
      originalPriceRub: "0.05",
      priceUnit: "image",
      discountPercent: "10",
      visible: false,
    },
  });
  expect(created.status()).toBe(201);

  await page.goto(`/dashboard/admin/models?search=${encodeURIComponent(modelId)}`);
  await page.locator(`tr[data-model-id="${modelId}"]`).getByRole("button", { name: "Routes", exact: true }).click();
  const editor = page.locator(`tr[data-routes-of="${modelId}"]`);
  await expect(editor).toContainText("No routes");

  // Each added route takes the next provider not yet used: fal, replicate, local.
  for (let i = 0; i < 3; i++) await editor.getByRole("button", { name: "Add route" }).click();
  await expect(editor.getByRole("button", { name: "Add route" })).toBeDisabled();
  await editor.getByLabel("Route 1: Endpoint id").fill("fal-ai/routes-e2e");
  await editor.getByLabel("Route 1: Cost per image, ₽").fill("0.03");
  await editor.getByLabel("Route 2: Endpoint id").fill("acme/routes:v1");
  await editor.getByLabel("Route 2: Input names (ours=theirs)").fill("prompt=text");
  await editor.getByLabel("Route 3: Endpoint id").fill("acme/local");
  await editor.getByLabel("Route 3: Cost per image, ₽").fill("0.05");
  await editor.getByLabel("Route 3: Enabled").uncheck();
  const margins = editor.getByTestId("route-margin");
  await expect(margins.nth(0)).toHaveText(/^0\.015\s₽\s*\(33\.33 %\)$/);
  await expect(margins.nth(1)).toHaveText("—");
  await expect(margins.nth(2)).toHaveText(/^-0\.005\s₽\s*\(-11\.11 %\)$/);
  // The local simulator needs no credentials; fal and Replicate have none in this run.
  await expect(editor.getByTestId("route-row").nth(2)).toContainText("Credentials set");
  await expect(editor.getByTestId("route-row").nth(0)).toContainText("Not configured");
  // The open editor is not in the page sweep (a11y.spec.ts loads pages as they come): checked here.
  const axe = await new AxeBuilder({ page })
    .include(`tr[data-routes-of="${modelId}"]`)
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"])
    .analyze();
  expect(axe.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id)).toEqual([]);
  await keepPageShot(page, "routes-editor");

  // local to the top, then Replicate (now last) removed.
  await editor.getByRole("button", { name: "Route 3: Move up" }).click();
  await editor.getByRole("button", { name: "Route 2: Move up" }).click();
  await editor.getByRole("button", { name: "Route 3: Remove" }).click();
  const rows = editor.getByTestId("route-row");
  await expect(rows).toHaveCount(2);
  expect(await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute("data-provider")))).toEqual(["local", "fal"]);

  // A malformed input map is caught before anything is sent.
  await editor.getByLabel("Route 2: Input names (ours=theirs)").fill("prompt");
  await editor.getByRole("button", { name: "Save routes" }).click();
  await expect(editor.getByRole("alert")).toHaveText("Input names: pairs like prompt=text, separated by commas.");
  await editor.getByLabel("Route 2: Input names (ours=theirs)").fill("");

  await editor.getByRole("button", { name: "Save routes" }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog).toContainText(`Save the routes of Routes E2E?`);
  await expect(dialog).toContainText("New jobs will try fal, in this order.");
  await dialog.getByRole("button", { name: "Save routes" }).click();
  await expect(dialog).toBeHidden();

  const saved = await (await page.request.get(`/admin/models/routes?modelId=${encodeURIComponent(modelId)}`)).json();
  expect(saved.routes).toEqual([
    {
      provider: "local",
      endpointId: "acme/local",
      inputMap: {},
      costRub: 0.05,
      enabled: false,
      position: 0,
      configured: true,
      marginRub: -0.005,
      marginPercent: -11.11,
    },
    {
      provider: "fal",
      endpointId: "fal-ai/routes-e2e",
      inputMap: {},
      costRub: 0.03,
      enabled: true,
      position: 1,
      configured: false,
      marginRub: 0.015,
      marginPercent: 33.33,
    },
  ]);

  // What is stored is what the editor opens with next time.
  await page.reload();
  await page.locator(`tr[data-model-id="${modelId}"]`).getByRole("button", { name: "Routes", exact: true }).click();
  await expect(editor.getByTestId("route-row")).toHaveCount(2);
  await expect(editor.getByLabel("Route 2: Endpoint id")).toHaveValue("fal-ai/routes-e2e");
  await expect(editor.getByLabel("Route 1: Enabled")).not.toBeChecked();
});

test("the Providers page, linked in the admin menu, shows what /admin/stats counts per provider", async ({ page, context, baseURL }) => {
  const token = await signIn(context, baseURL!);
  // A job fal served after Replicate refused it: 1.5 s to start, 0.05 ₽ charged, 0.03 ₽ owed to fal.
  await withAppDb(async (sql) => {
    const [user] = await sql<{ id: string }[]>`select user_id as id from sessions where session_token = ${token}`;
    const attempts = [{ provider: "replicate", outcome: "refused", reason: "e2e", at: new Date().toISOString() }];
    await sql`insert into generation_requests (id, user_id, model_id, surface, mode, status, input, provider, submitted_at, started_at,
                cost_reserved_credits, cost_settled_credits, provider_cost_credits, attempts)
              values (${crypto.randomUUID()}, ${user!.id}, 'fal-ai/flux/dev', 'gateway', 'queue', 'completed', ${sql.json({ prompt: "e2e" })}, 'fal',
                now() - interval '10 seconds', now() - interval '8.5 seconds', 500, 500, 300, ${sql.json(attempts)})`;
  });
  await page.goto("/dashboard/admin");
  await page.getByRole("link", { name: "Providers" }).first().click();
  await expect(page).toHaveURL(/\/dashboard\/admin\/providers$/);
  await expect(page.getByRole("heading", { name: "Providers", level: 1 })).toBeVisible();

  const stats = await (await page.request.get("/admin/stats")).json();
  const fal = stats.providers.find((p: { provider: string }) => p.provider === "fal");
  const replicate = stats.providers.find((p: { provider: string }) => p.provider === "replicate");
  expect(fal.jobs).toBeGreaterThanOrEqual(1);
  expect(replicate.failovers).toBeGreaterThanOrEqual(1);
  const row = (name: string) => page.locator(`tr[data-provider="${name}"]`);
  for (const name of ["fal", "local", "replicate"]) await expect(row(name)).toBeVisible();
  const cells = async (name: string) => (await row(name).locator("td").allInnerTexts()).map((t) => t.replace(/\s+/g, " ").trim());
  const falCells = await cells("fal");
  expect(falCells[1]).toBe(String(fal.jobs));
  expect(falCells[4]).toBe(String(fal.failovers));
  expect((await cells("replicate"))[4]).toBe(String(replicate.failovers));
  await expect(row("fal")).toContainText("Not configured");
  await expect(row("local")).toContainText("Credentials set");
  await expect(row("fal")).toContainText("Closed");
  await keepPageShot(page, "providers");
});
