import { drizzle } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import type { Db } from "@/db/client";
import * as schema from "@/db/schema";
import { apiKeys, users } from "@/db/schema";
import { generateApiKey } from "@/lib/auth/api-key";
import { grantCredits } from "@/lib/billing/ledger/ledger";
import { call, sleep } from "../lib/clients";
import type { Row } from "../lib/report";
import { startServer } from "../lib/server";
import type { Scenario } from "./types";

/**
 * `npm run bench chaos`: two field findings, replayed on the production build as they were found.
 * - crash: 10 sync runs (4 s at the provider, each with an Idempotency-Key) on an instance that is
 *   SIGKILLed 1.5 s in and restarted on the same database, beside a second instance that lives on.
 *   The clients retry on the live instance with the same keys. Measured: when each retry answers,
 *   when every job is final (the reserve released or charged), and the ledger.
 * - cancel: 60 queued jobs of 1.5 s, each cancelled three times at once as it finishes. Every
 *   answer must say what happened: `ok: true` only for a job that ends cancelled, and a job that
 *   ends cancelled answered as such.
 */
const MODEL = "fal-ai/flux/dev";
const SMALL = { image_size: { width: 256, height: 256 } };
const GRANT = 1_000 * 10_000;

async function actor(databaseUrl: string, name: string) {
  const client = postgres(databaseUrl, { max: 2, onnotice: () => {} });
  const db = drizzle(client, { schema }) as unknown as Db;
  const [user] = await db
    .insert(users)
    .values({ email: `${name}-${Date.now()}@example.test` })
    .returning({ id: users.id });
  const key = generateApiKey("live");
  await db
    .insert(apiKeys)
    .values({ id: `key_${name}_${Date.now()}`, userId: user!.id, name, hash: key.hash, prefix: key.prefix, start: key.start });
  await grantCredits(db, { userId: user!.id, credits: GRANT, type: "grant", idempotencyKey: `${name}-grant:${user!.id}` });
  return { userId: user!.id, key: key.key, pg: client };
}

const json = (body: string) => {
  try {
    return JSON.parse(body) as Record<string, unknown>;
  } catch {
    return {};
  }
};

export const chaosScenario: Scenario = {
  name: "chaos",
  description: "a SIGKILLed instance's sync jobs taken over; cancels racing completions",
  onlyByName: true,
  run: async ({ server }) => {
    const rows: Row[] = [];
    // Crash: the victim runs the sync jobs and dies 1.5 s in.
    const crash = await actor(server.databaseUrl, "crash");
    const victim = await startServer(3311, {}, { databaseUrl: server.databaseUrl });
    const keys = Array.from({ length: 10 }, (_, i) => `crash-${Date.now()}-${i}`);
    const body = (i: number) => JSON.stringify({ prompt: `a crashed lighthouse ${i} [latency:4000]`, ...SMALL });
    const cut = keys.map((k, i) =>
      call(`${victim.baseUrl}/run/${MODEL}`, { key: crash.key, body: body(i), headers: { "Idempotency-Key": k } }),
    );
    await sleep(1_500);
    const killedAt = Date.now();
    await victim.kill();
    const lost = (await Promise.all(cut)).filter((a) => a.status === 0).length;
    const restarted = await startServer(3311, {}, { databaseUrl: server.databaseUrl });
    const restartedMs = Date.now() - killedAt;
    try {
      // The clients retry on the live instance with the same keys (and the same bodies).
      const retries = await Promise.all(
        keys.map((k, i) => call(`${server.baseUrl}/run/${MODEL}`, { key: crash.key, body: body(i), headers: { "Idempotency-Key": k } })),
      );
      const answeredMs = retries.map((r) => r.at - killedAt).sort((a, b) => a - b);
      let finalMs = NaN;
      for (;;) {
        const [open] =
          await crash.pg`select count(*)::int as n from generation_requests where user_id = ${crash.userId} and status in ('queued', 'in_progress')`;
        if (open!.n === 0) {
          finalMs = Date.now() - killedAt;
          break;
        }
        if (Date.now() - killedAt > 10 * 60_000) break;
        await sleep(250);
      }
      const jobs = await crash.pg`select id, status from generation_requests where user_id = ${crash.userId}`;
      const ledger =
        await crash.pg`select type, count(*)::int as n, sum(amount)::bigint as sum from credit_transactions where user_id = ${crash.userId} group by type`;
      const [balance] = await crash.pg`select credits as balance from balances where user_id = ${crash.userId}`;
      const moves = ledger.reduce((s, r) => s + BigInt(r.sum as string), 0n);
      const sameIds = retries.every((r) => jobs.some((j) => j.id === json(r.body).request_id));
      rows.push({
        part: "crash",
        "requests cut": lost,
        "restart ms": restartedMs,
        "retries 200": retries.filter((r) => r.status === 200).length,
        "retries answered ms (first/last)": `${answeredMs[0]} / ${answeredMs.at(-1)}`,
        "all final ms": finalMs,
        jobs: jobs.length,
        "same request ids": sameIds ? "yes" : "NO",
        ledger: ledger.map((r) => `${r.type}×${r.n}`).join(" "),
        "balance = ledger": BigInt(balance!.balance as string) === moves ? "yes" : "NO",
      });
    } finally {
      await restarted.stop();
    }

    // Cancels racing completions.
    const racer = await actor(server.databaseUrl, "cancel");
    const answers: { id: string; said: { ok: boolean; status: string }[] }[] = [];
    await Promise.all(
      Array.from({ length: 60 }, async (_, i) => {
        const queued = await call(`${server.baseUrl}/queue/${MODEL}`, {
          key: racer.key,
          body: JSON.stringify({ prompt: `a race ${i} [latency:1500]`, ...SMALL }),
        });
        const id = json(queued.body).request_id as string;
        await sleep(1_300 + (i % 10) * 40);
        const url = `${server.baseUrl}/queue/${MODEL}/requests/${id}/cancel`;
        const said = await Promise.all([0, 1, 2].map(() => call(url, { method: "PUT", key: racer.key })));
        answers.push({ id, said: said.map((a) => json(a.body) as { ok: boolean; status: string }) });
      }),
    );
    for (;;) {
      const [open] =
        await racer.pg`select count(*)::int as n from generation_requests where user_id = ${racer.userId} and status in ('queued', 'in_progress')`;
      if (open!.n === 0) break;
      await sleep(250);
    }
    const finals = new Map(
      (await racer.pg`select id, status from generation_requests where user_id = ${racer.userId}`).map((r) => [
        r.id as string,
        r.status as string,
      ]),
    );
    let contradictions = 0;
    const outcomes: Record<string, number> = {};
    for (const { id, said } of answers) {
      const final = finals.get(id)!;
      outcomes[final] = (outcomes[final] ?? 0) + 1;
      const oks = said.filter((a) => a.ok).length;
      // Exactly one ok for a cancelled job, none otherwise; an answer of a cancelled job says cancelled.
      const wrong = final === "cancelled" ? oks !== 1 || said.some((a) => a.status !== "cancelled") : oks !== 0;
      if (wrong) contradictions++;
    }
    const refunds =
      await racer.pg`select count(*)::int as n from credit_transactions where user_id = ${racer.userId} and type = 'generation_refund'`;
    const cancels: Row[] = [];
    cancels.push({
      jobs: answers.length,
      outcomes: Object.entries(outcomes)
        .map(([k, v]) => `${k} ${v}`)
        .join(", "),
      "answers contradicting the ending": contradictions,
      refunds: refunds[0]!.n,
    });
    await crash.pg.end();
    await racer.pg.end();
    return {
      title: "Chaos: a killed instance's sync jobs",
      rows,
      tables: [{ title: "Chaos: three cancels at once as each job finishes", rows: cancels }],
      data: { crash: rows, cancel: cancels },
    };
  },
};
