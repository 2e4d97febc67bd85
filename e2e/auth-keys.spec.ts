import { expect, test, type Page } from "@playwright/test";

/** Calls the API from the page with a bearer key and no cookies, as a script would. */
async function fetchMe(page: Page, key: string) {
  return page.evaluate(async (bearer) => {
    const res = await fetch("/me", { headers: { Authorization: `Bearer ${bearer}` }, credentials: "omit" });
    return { status: res.status, body: await res.json() };
  }, key);
}

test("sign in with the magic link from the dev outbox, create a key, see it once, use it, delete it", async ({ page }) => {
  const email = `e2e-${Date.now()}@example.test`;

  // A signed-out visit to a dashboard page goes to sign-in and remembers where it was going.
  await page.goto("/dashboard/keys");
  await expect(page).toHaveURL(/\/signin\?callbackUrl=%2Fdashboard%2Fkeys$/);
  await page.getByLabel("E-mail").fill(email);
  await page.getByRole("button", { name: "Email me a sign-in link" }).click();
  await expect(page.getByRole("heading", { name: "Check your e-mail" })).toBeVisible();

  await page.getByRole("link", { name: "open the dev mailbox" }).click();
  const mail = page.getByTestId("dev-mail").filter({ hasText: email }).first();
  await mail.getByRole("link", { name: "Open sign-in link" }).click();
  await expect(page).toHaveURL(/\/dashboard\/keys$/);
  await expect(page.getByTestId("viewer-email")).toHaveText(email);

  await page.getByLabel("Name").fill("e2e key");
  await page.getByRole("button", { name: "Create key" }).click();
  const shown = page.getByTestId("new-key");
  await expect(shown).toHaveText(/^gw_live_[0-9A-Za-z]{40}$/);
  const key = (await shown.textContent())!;
  await expect(page.getByTestId("key-row").filter({ hasText: "e2e key" })).toBeVisible();

  const me = await fetchMe(page, key);
  expect(me.status).toBe(200);
  expect(me.body).toMatchObject({ user: { email }, auth: { source: "api_key" } });

  // Shown once: after a reload the key is nowhere on the page, only its start.
  await page.reload();
  await expect(page.getByTestId("new-key")).toHaveCount(0);
  await expect(page.locator("body")).not.toContainText(key);
  const row = page.getByTestId("key-row").filter({ hasText: "e2e key" });
  await expect(row).toContainText(`${key.slice(0, 12)}…`);

  await row.getByRole("button", { name: "Delete" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Delete key" }).click();
  await expect(row).toHaveCount(0);
  const after = await fetchMe(page, key);
  expect(after.status).toBe(401);
  expect(after.body.error).toBe("unauthorized");

  // Signing out ends the session: the dashboard sends us back to sign-in.
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/signin\?signedOut=1$/);
  await page.goto("/dashboard");
  await expect(page).toHaveURL(/\/signin/);
});
