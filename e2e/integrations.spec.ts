import { expect, test } from "@playwright/test";
import sharp from "sharp";
import { withAppDb } from "./catalog-db";

/** A new user (no balance) with a live session; returns the session token for the cookie. */
async function userSession(): Promise<string> {
  return withAppDb(async (sql) => {
    const id = crypto.randomUUID();
    const token = crypto.randomUUID();
    await sql`insert into users (id, email, name, role) values (${id}, ${`covers-${id}@example.test`}, 'E2E Covers', 'user')`;
    await sql`insert into sessions (session_token, id, user_id, expires) values (${token}, ${crypto.randomUUID()}, ${id}, now() + interval '1 day')`;
    return token;
  });
}

test("a user previews the cover prompt, and writes a Cyrillic artist on an uploaded cover", async ({ page, context, baseURL }) => {
  await context.addCookies([{ name: "authjs.session-token", value: await userSession(), url: baseURL! }]);
  await page.goto("/dashboard");
  await page.getByRole("link", { name: "Integrations" }).click();
  await expect(page).toHaveURL(/\/dashboard\/integrations$/);

  // Generate: the prompt preview follows the form as it is typed.
  const generate = page.getByTestId("generate-form");
  await generate.getByLabel("Artist", { exact: true }).fill("Земфира");
  await generate.getByLabel("Release name", { exact: true }).fill("Полночный экспресс");
  await generate.getByLabel("Genre").fill("рэп");
  await generate.getByLabel("Lyrics or description").fill("Огни ночного города");
  await expect(page.getByTestId("prompt-preview")).toContainText(
    'Square album cover artwork for a hip-hop release titled "Полночный экспресс".',
  );
  await expect(page.getByTestId("prompt-preview")).toContainText("Огни ночного города");
  // A new user has no balance: the server's own words come back.
  await generate.getByRole("button", { name: "Generate cover" }).click();
  await expect(generate.getByRole("alert")).toBeVisible();

  // Edit: an uploaded picture, previewed live, then drawn on by the server.
  const edit = page.getByTestId("edit-form");
  await edit.getByLabel("Artist", { exact: true }).fill("Земфира");
  await edit.getByLabel("Release name", { exact: true }).fill("Полночный экспресс");
  await edit.getByLabel("Genre").fill("rock");
  const picture = await sharp({ create: { width: 640, height: 640, channels: 3, background: "#2a4d69" } })
    .png()
    .toBuffer();
  await edit.locator('input[type="file"]').setInputFiles({ name: "cover.png", mimeType: "image/png", buffer: picture });
  await expect(page.getByTestId("overlay-preview")).toContainText("Земфира");
  await edit.getByRole("button", { name: "Write on the cover" }).click();
  const result = page.getByTestId("edit-result");
  await expect(result.getByRole("img")).toBeVisible();
  await expect.poll(() => result.getByRole("img").evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(640);
  await expect(result).toContainText("/files/r/");
});
