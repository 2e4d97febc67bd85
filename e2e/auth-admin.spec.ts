import { expect, test } from "@playwright/test";
import { signIn, userCreate } from "./sign-in";

test("an admin made by user:create finds a user, bans them (their key gets 403) and lifts the ban", async ({ page }) => {
  const stamp = Date.now();
  const admin = userCreate("--email", `admin-${stamp}@example.test`, "--admin");
  const target = userCreate("--email", `target-${stamp}@example.test`);
  expect(admin.role).toBe("admin");

  await signIn(page, admin.email);
  await page.getByRole("link", { name: "Users" }).click();
  await expect(page).toHaveURL(/\/dashboard\/admin\/users$/);
  await page.getByLabel("Search").fill(`target-${stamp}`);
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page.getByTestId("admin-user-row")).toHaveCount(1);
  await page.getByRole("link", { name: target.email }).click();
  await expect(page.getByRole("heading", { name: target.email })).toBeVisible();

  await page.getByLabel("Reason").fill("e2e abuse check");
  await page.getByRole("button", { name: "Ban user" }).click();
  // Nothing happens until the admin confirms.
  expect(
    await page.evaluate(
      async (key) => (await fetch("/me", { headers: { Authorization: `Bearer ${key}` }, credentials: "omit" })).status,
      target.apiKey,
    ),
  ).toBe(200);
  await page.getByRole("dialog").getByRole("button", { name: "Ban", exact: true }).click();
  await expect(page.getByText("Banned for “e2e abuse check”, indefinitely.")).toBeVisible();
  const status = () =>
    page.evaluate(
      async (key) => (await fetch("/me", { headers: { Authorization: `Bearer ${key}` }, credentials: "omit" })).status,
      target.apiKey,
    );
  expect(await status()).toBe(403);

  await page.getByRole("button", { name: "Lift the ban" }).click();
  await expect(page.getByRole("button", { name: "Ban user" })).toBeVisible();
  expect(await status()).toBe(200);
});

test("a non-admin sees no admin area", async ({ page }) => {
  const user = userCreate("--email", `plain-${Date.now()}@example.test`);
  await signIn(page, user.email);
  await expect(page.getByRole("link", { name: "Users" })).toHaveCount(0);
  await page.goto("/dashboard/admin/users");
  await expect(page.getByText("This area needs the admin role.")).toBeVisible();
  await expect(page.getByTestId("admin-user-row")).toHaveCount(0);
});
