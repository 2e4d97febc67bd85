import postgres from "postgres";
import { readPgliteLock } from "../db/pglite-lock";

/**
 * The e2e server's own database (its embedded PGlite, reached over the loopback port it
 * publishes in DATA_DIR/pglite.lock), for arranging what the UI cannot: an admin's session.
 */
export async function withAppDb<T>(fn: (sql: postgres.Sql) => Promise<T>): Promise<T> {
  const url =
    process.env.DATABASE_URL ??
    (() => {
      const lock = readPgliteLock(process.env.E2E_DATA_DIR);
      if (!lock) throw new Error("the e2e server's database is not reachable (no pglite.lock)");
      return `postgres://postgres@127.0.0.1:${lock.port}/postgres`;
    })();
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    return await fn(sql);
  } finally {
    await sql.end();
  }
}

/** A new admin with a live session; returns the session token for the cookie. */
export async function adminSession(): Promise<string> {
  return withAppDb(async (sql) => {
    const id = crypto.randomUUID();
    const token = crypto.randomUUID();
    await sql`insert into users (id, email, name, role) values (${id}, ${`admin-${id}@example.test`}, 'E2E Admin', 'admin')`;
    await sql`insert into sessions (session_token, id, user_id, expires) values (${token}, ${crypto.randomUUID()}, ${id}, now() + interval '1 day')`;
    return token;
  });
}
