import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { baseURL } from "../playwright.config";

/**
 * Field findings item 8: with embedded defaults (`npm start`, no APP_URL: the listening address is
 * "localhost"), a person who opened 127.0.0.1 got a sign-in link for localhost, the cookie landed
 * there, and they ended on 127.0.0.1 signed out. Proven on the production build as an operator
 * runs it: `npm start` in a child process with no APP_URL, signed into from 127.0.0.1 in Chromium.
 */

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** Variables of the Playwright process that would choose the server's address or data. */
const INHERITED_OUT = ["APP_URL", "AUTH_URL", "PORT", "HOSTNAME", "DATABASE_URL", "DATA_DIR", "E2E", "AUTH_TRUST_HOST"];

/** `npm start -- -p PORT` on embedded defaults, with the dev mailbox on (E2E=1). */
async function embeddedDefaults(port: number): Promise<{ npm: ChildProcess; output: () => string }> {
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([k]) => !INHERITED_OUT.includes(k)));
  const npm = spawn("npm", ["start", "--", "-p", String(port)], {
    env: { ...inherited, NODE_ENV: "production", DATA_DIR: mkdtempSync(path.join(tmpdir(), "gw-e2e-host-")), E2E: "1", LOG_LEVEL: "warn" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let text = "";
  npm.stdout!.on("data", (b: Buffer) => (text += b.toString()));
  npm.stderr!.on("data", (b: Buffer) => (text += b.toString()));
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (npm.exitCode !== null) throw new Error(`the server exited during start-up:\n${text}`);
    const res = await fetch(`http://127.0.0.1:${port}/health`).catch(() => null);
    if (res?.ok) return { npm, output: () => text };
    if (Date.now() > deadline) throw new Error(`the server did not become healthy:\n${text}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

test("embedded defaults: signing in from 127.0.0.1 mails a 127.0.0.1 link and ends signed in on 127.0.0.1", async ({ page }) => {
  test.setTimeout(180_000);
  const port = await freePort();
  const server = await embeddedDefaults(port);
  const site = `http://127.0.0.1:${port}`;
  try {
    const email = `host-${Date.now()}@example.test`;
    await page.goto(`${site}/signin`);
    await expect(page.getByTestId("signin-other-host")).toHaveCount(0);
    await page.getByLabel("E-mail").fill(email);
    await page.getByRole("button", { name: "Email me a sign-in link" }).click();
    await expect(page.getByRole("heading", { name: "Check your e-mail" })).toBeVisible();
    expect(new URL(page.url()).origin).toBe(site);

    await page.goto(`${site}/dev/mailbox`);
    const link = page.getByTestId("dev-mail").filter({ hasText: email }).first().getByRole("link", { name: "Open sign-in link" });
    expect(new URL((await link.getAttribute("href"))!).origin).toBe(site);
    await link.click();
    await expect(page.getByTestId("viewer-email")).toHaveText(email);
    expect(new URL(page.url()).origin).toBe(site);
    expect(new URL(page.url()).pathname).toBe("/dashboard");
    const cookies = await page.context().cookies(site);
    expect(cookies.find((c) => c.name === "authjs.session-token")).toMatchObject({ domain: "127.0.0.1" });
  } finally {
    server.npm.kill("SIGTERM");
    await new Promise((resolve) => (server.npm.exitCode !== null ? resolve(null) : server.npm.once("exit", resolve)));
  }
});

test("APP_URL set: the sign-in page opened under another host says where sign-in links lead", async ({ page }) => {
  // The suite's server has APP_URL=http://127.0.0.1:PORT; the same server under the name localhost.
  const other = new URL(baseURL);
  other.hostname = "localhost";
  await page.goto(`${other.origin}/signin`);
  const notice = page.getByTestId("signin-other-host");
  await expect(notice).toContainText(`This page is open on ${other.host}, but sign-in links lead to ${baseURL}`);
  await expect(notice.getByRole("link", { name: `Continue on ${baseURL}` })).toHaveAttribute(
    "href",
    `${baseURL}/signin?callbackUrl=%2Fdashboard`,
  );
  await page.goto(`${baseURL}/signin`);
  await expect(page.getByTestId("signin-other-host")).toHaveCount(0);
});
