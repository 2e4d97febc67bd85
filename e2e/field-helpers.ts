import { execFileSync } from "node:child_process";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, type APIRequestContext } from "@playwright/test";
import { withAppDb } from "./catalog-db";

/**
 * The field suite's tools: users with live keys and a balance (made by the CLI a user would run),
 * the ledger check that follows every test, and a loopback receiver for completion callbacks.
 */
export type ApiUser = { userId: string; email: string; apiKey: string };

/** `npm run user:create` against the running server: a user, a `_live_` key and `rub` rubles through the ledger. */
export function apiUser(rub = 100): ApiUser {
  const email = `field-${crypto.randomUUID()}@example.test`;
  const out = execFileSync("npx", ["tsx", "scripts/user-create.ts", "--email", email, "--credits", String(rub)], {
    env: { ...process.env, DATA_DIR: process.env.E2E_DATA_DIR },
    stdio: ["ignore", "pipe", "inherit"],
  });
  return JSON.parse(out.toString().trim().split("\n").at(-1)!) as ApiUser;
}

/** A dashboard session for the same user (the browser's EventSource sends cookies, not keys). */
export async function sessionFor(userId: string): Promise<string> {
  const token = crypto.randomUUID();
  await withAppDb(
    (sql) =>
      sql`insert into sessions (session_token, id, user_id, expires) values (${token}, ${crypto.randomUUID()}, ${userId}, now() + interval '1 day')`,
  );
  return token;
}

export const bearer = (user: ApiUser, extra: Record<string, string> = {}) => ({ authorization: `Bearer ${user.apiKey}`, ...extra });

/**
 * The money invariants, read from the server's database: the balance equals the sum of the user's
 * ledger rows and is never negative; every job holds at most one reserve and one refund; a job
 * that failed or was cancelled is refunded in full exactly once; a completed one keeps its charge
 * (its reserve, adjusted only by settle rows); a job still running holds its reserve.
 */
export async function expectLedgerConsistent(userId: string): Promise<{ jobs: number; charged: number }> {
  return withAppDb(async (sql) => {
    const [balance] = await sql`select credits::bigint as credits from balances where user_id = ${userId}`;
    const [sum] = await sql`select coalesce(sum(amount), 0)::bigint as total from credit_transactions where user_id = ${userId}`;
    expect(BigInt(balance?.credits ?? 0), "balance = sum of the ledger").toBe(BigInt(sum!.total));
    expect(BigInt(balance?.credits ?? 0) >= 0n, "balance never negative").toBe(true);
    const jobs = await sql`
      select g.id, g.status, g.cost_reserved_credits::bigint as reserved,
             count(*) filter (where t.type = 'generation_reserve')::int as reserves,
             count(*) filter (where t.type = 'generation_refund')::int as refunds,
             coalesce(sum(t.amount), 0)::bigint as net
        from generation_requests g left join credit_transactions t on t.generation_id = g.id
       where g.user_id = ${userId} and not g.sandbox
       group by g.id`;
    let charged = 0n;
    for (const job of jobs) {
      const label = `job ${job.id} (${job.status})`;
      expect(job.reserves, `${label}: one reserve`).toBe(BigInt(job.reserved) > 0n ? 1 : 0);
      expect(job.refunds, `${label}: at most one refund`).toBeLessThanOrEqual(1);
      if (job.status === "failed" || job.status === "cancelled") {
        expect(job.refunds, `${label}: refunded`).toBe(BigInt(job.reserved) > 0n ? 1 : 0);
        expect(BigInt(job.net), `${label}: costs nothing`).toBe(0n);
      } else {
        expect(job.refunds, `${label}: not refunded`).toBe(0);
        expect(BigInt(job.net) < 0n || BigInt(job.reserved) === 0n, `${label}: charged`).toBe(true);
      }
      charged += -BigInt(job.net);
    }
    return { jobs: jobs.length, charged: Number(charged) };
  });
}

/** A job's row as the server stored it. */
export async function jobOf(id: string) {
  const [row] = await withAppDb((sql) => sql`select id, status, error_code, provider_request_id from generation_requests where id = ${id}`);
  return row;
}

/** Polls `fn` until `done(value)` (every `everyMs`, up to `withinMs`), returning the last value. */
export async function pollUntil<T>(
  fn: () => Promise<T>,
  done: (value: T) => boolean,
  { everyMs = 500, withinMs = 30_000 } = {},
): Promise<T> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const value = await fn();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

export async function json(
  request: APIRequestContext,
  method: string,
  path: string,
  user: ApiUser,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  const res = await request.fetch(path, { method, headers: bearer(user, headers), data: body });
  const text = await res.text();
  return { status: res.status(), headers: res.headers(), body: text ? JSON.parse(text) : null };
}

export type Received = { headers: IncomingHttpHeaders; body: string };

/** A loopback receiver for completion callbacks: every POST is kept and answered 200. */
export async function callbackReceiver() {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      received.push({ headers: req.headers, body });
      res.writeHead(200).end("ok");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/callback`, received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
