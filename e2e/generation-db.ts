import { execFileSync } from "node:child_process";
import type { BrowserContext } from "@playwright/test";
import { withAppDb } from "./catalog-db";

/** Credits granted the way an admin grant does: through the ledger, never by writing a balance. */
function grant(userId: string, rub: number): void {
  execFileSync("npx", ["tsx", "e2e/grant-credits.ts", userId, String(rub)], {
    env: { ...process.env, DATA_DIR: process.env.E2E_DATA_DIR },
    stdio: ["ignore", "pipe", "inherit"],
  });
}

/**
 * A new user with a live session (the cookie set on `context`) and, when `rub` > 0, that many
 * rubles on the balance. Returns the user's id and e-mail.
 */
export async function signedInUser(context: BrowserContext, baseURL: string, { rub = 0 } = {}) {
  const user = await withAppDb(async (sql) => {
    const id = crypto.randomUUID();
    const token = crypto.randomUUID();
    const email = `player-${id}@example.test`;
    await sql`insert into users (id, email, name) values (${id}, ${email}, 'E2E Player')`;
    await sql`insert into sessions (session_token, id, user_id, expires) values (${token}, ${crypto.randomUUID()}, ${id}, now() + interval '1 day')`;
    return { id, email, token };
  });
  if (rub > 0) grant(user.id, rub);
  await context.addCookies([{ name: "authjs.session-token", value: user.token, url: baseURL }]);
  return { userId: user.id, email: user.email };
}
