import type { BrowserContext } from "@playwright/test";
import { CREDITS_PER_RUB } from "../lib/money/credits";
import { withAppDb } from "./catalog-db";

/** The e2e server's database URL (its embedded PGlite over loopback, or DATABASE_URL). */
async function appDbUrl(): Promise<string> {
  const { readPgliteLock } = await import("../db/pglite-lock");
  if (process.env.DATABASE_URL) return process.env.DATABASE_URL;
  const lock = readPgliteLock(process.env.E2E_DATA_DIR);
  if (!lock) throw new Error("the e2e server's database is not reachable (no pglite.lock)");
  return `postgres://postgres@127.0.0.1:${lock.port}/postgres`;
}

/** Credits granted the way an admin grant does: through the ledger, never by writing a balance. */
async function grant(userId: string, rub: number): Promise<void> {
  const { postgresHandle } = await import("../db/client");
  const { grantCredits } = await import("../lib/billing/ledger");
  const handle = postgresHandle(await appDbUrl(), 1);
  try {
    await grantCredits(handle.db, { userId, credits: rub * CREDITS_PER_RUB, type: "grant", idempotencyKey: `e2e-grant:${userId}`, description: "e2e" });
  } finally {
    await handle.close();
  }
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
  if (rub > 0) await grant(user.id, rub);
  await context.addCookies([{ name: "authjs.session-token", value: user.token, url: baseURL }]);
  return { userId: user.id, email: user.email };
}
