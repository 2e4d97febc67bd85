import { execFileSync } from "node:child_process";
import { expect, type Page } from "@playwright/test";

export type CreatedUser = { userId: string; email: string; role: string; apiKey: string };

/** `npm run user:create` against the running server's embedded database (its DATA_DIR). */
export function userCreate(...args: string[]): CreatedUser {
  const out = execFileSync("node_modules/.bin/tsx", ["scripts/user-create.ts", ...args], {
    env: { ...process.env, DATA_DIR: process.env.E2E_DATA_DIR, DATABASE_URL: "" },
  });
  return JSON.parse(out.toString());
}

/** Signs in through the real magic-link flow: the sign-in form, then the link from the dev mailbox. */
export async function signIn(page: Page, email: string) {
  await page.goto("/signin");
  await page.getByLabel("E-mail").fill(email);
  await page.getByRole("button", { name: "Email me a sign-in link" }).click();
  await expect(page.getByRole("heading", { name: "Check your e-mail" })).toBeVisible();
  await page.goto("/dev/mailbox");
  await page.getByTestId("dev-mail").filter({ hasText: email }).first().getByRole("link", { name: "Open sign-in link" }).click();
  await expect(page.getByTestId("viewer-email")).toHaveText(email);
}
