import { execFileSync } from "node:child_process";
import { expect, type BrowserContext, type Locator, type Page } from "@playwright/test";
import { withAppDb } from "./catalog-db";

export const DESKTOP = { width: 1366, height: 900 };
export const PHONE = { width: 390, height: 844 };
export const CHROME_LINUX = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";

/** A new user (an admin with `admin`) with a live session whose browser is `userAgent`; the cookie is set on `context` when given. */
export async function sessionUser(
  context: BrowserContext | null,
  baseURL: string,
  { admin = false, email, userAgent = CHROME_LINUX }: { admin?: boolean; email?: string; userAgent?: string } = {},
) {
  const user = await withAppDb(async (sql) => {
    const id = crypto.randomUUID();
    const token = crypto.randomUUID();
    const address = email ?? `pages-${id}@example.test`;
    await sql`insert into users (id, email, name, role) values (${id}, ${address}, 'E2E Pages', ${admin ? "admin" : "user"})`;
    await sql`insert into sessions (session_token, id, user_id, expires, user_agent) values (${token}, ${crypto.randomUUID()}, ${id}, now() + interval '1 day', ${userAgent})`;
    return { userId: id, email: address, token };
  });
  await context?.addCookies([{ name: "authjs.session-token", value: user.token, url: baseURL }]);
  return user;
}

/** Rubles on a user's balance through the ledger, as an admin grant does (e2e/grant-credits.ts). */
export function grantRubles(userId: string, rub: number): void {
  execFileSync("npx", ["tsx", "e2e/grant-credits.ts", userId, String(rub)], {
    env: { ...process.env, DATA_DIR: process.env.E2E_DATA_DIR },
    stdio: ["ignore", "pipe", "inherit"],
  });
}

/** The document never scrolls sideways at this width. */
export async function expectNoSidewaysScroll(page: Page) {
  const { scroll, width } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, width: window.innerWidth }));
  expect(scroll, `the page is ${scroll}px wide in a ${width}px window`).toBeLessThanOrEqual(width);
}

/** Nothing inside `box` is wider than it: no clipped cell, no inner scrollbar, every action in view. */
export async function expectFits(box: Locator, what: string) {
  const overflow = await box.evaluate((el) => {
    const right = el.getBoundingClientRect().right;
    const scrollers = [el, ...el.querySelectorAll("*")].filter(
      // A form control's own text scrolls inside it by design.
      (e) =>
        !e.matches("input, select, textarea, option") && e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflowX !== "visible",
    );
    const beyond = [...el.querySelectorAll("a, button, td, th")].filter((e) => e.getBoundingClientRect().right > right + 1);
    return [
      ...scrollers.map((e) => `${e.tagName} scrolls ${e.scrollWidth}>${e.clientWidth}`),
      ...beyond.map((e) => `${e.tagName} "${e.textContent?.trim().slice(0, 30)}" beyond`),
    ];
  });
  expect(overflow, `${what} overflows`).toEqual([]);
}

/** Each model id on the page breaks, if at all, only after a slash: no segment spans two lines. */
export async function expectModelIdsWhole(page: Page) {
  const broken = await page.evaluate(() =>
    [...document.querySelectorAll("[data-model-id] > span")]
      .filter((s) => {
        const range = document.createRange();
        range.selectNodeContents(s);
        const tops = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
        return tops.size > 1;
      })
      .map((s) => s.textContent),
  );
  expect(broken, "model id segments broken across lines").toEqual([]);
}
