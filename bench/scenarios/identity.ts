import { drizzle } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import { apiKeys, sessions, users } from "@/db/schema";
import { generateApiKey } from "@/lib/auth/api-key";
import { load, type LoadResult } from "../lib/load";
import type { Row } from "../lib/report";
import type { Scenario } from "./types";

/**
 * The cost of identity on every request: `GET /me` authenticated by a key (hash lookup, the
 * sliding-window upsert that also bumps the key's counters, one profile read) and by a session,
 * beside the same run's `GET /health`. Keys are spread over 64 users, as real traffic is; one
 * more case holds a single key at its limit (every request refused with 429).
 */
async function seed(databaseUrl: string) {
  const client = postgres(databaseUrl, { max: 2, onnotice: () => {} });
  const db = drizzle(client);
  const limited: string[] = [];
  const unlimited: string[] = [];
  let token = "";
  let atLimit = "";
  for (let i = 0; i < 64; i++) {
    const [user] = await db
      .insert(users)
      .values({ email: `bench-${i}-${Date.now()}@example.test` })
      .returning({ id: users.id });
    for (const [list, rateLimitEnabled] of [
      [limited, true],
      [unlimited, false],
    ] as const) {
      const key = generateApiKey("live");
      await db.insert(apiKeys).values({
        id: `key_bench_${i}_${list.length}_${rateLimitEnabled}`,
        userId: user!.id,
        name: "bench",
        hash: key.hash,
        prefix: key.prefix,
        start: key.start,
        rateLimitEnabled,
      });
      list.push(key.key);
    }
    if (i === 0) {
      token = crypto.randomUUID();
      await db.insert(sessions).values({ sessionToken: token, userId: user!.id, expires: new Date(Date.now() + 86_400_000) });
      const key = generateApiKey("live");
      await db.insert(apiKeys).values({
        id: "key_bench_at_limit",
        userId: user!.id,
        name: "at limit",
        hash: key.hash,
        prefix: key.prefix,
        start: key.start,
        rateLimitMax: 1,
      });
      atLimit = key.key;
    }
  }
  await client.end();
  return { limited, unlimited, token, atLimit };
}

function rotating(keys: string[]) {
  let i = 0;
  return (req: { headers?: Record<string, string> }) => ({
    ...req,
    headers: { ...req.headers, authorization: `Bearer ${keys[i++ % keys.length]}` },
  });
}

const row = (name: string, c: number, r: LoadResult, base: LoadResult): Row => ({
  case: name,
  concurrency: c,
  "req/s": Math.round(r.rps),
  "× baseline": (r.rps / base.rps).toFixed(2),
  "p50 ms": r.latencyMs.p50,
  "p99 ms": r.latencyMs.p99,
  statuses: Object.entries(r.statusCounts)
    .map(([s, n]) => `${s}:${n}`)
    .join(" "),
});

export const identityScenario: Scenario = {
  name: "identity",
  description: "GET /me by key (rate-limited, unlimited) and by session, and a key at its limit, beside GET /health",
  async run({ server, baseline }) {
    const { limited, unlimited, token, atLimit } = await seed(server.databaseUrl);
    const url = `${server.baseUrl}/me`;
    const base1 = await load({ url: `${server.baseUrl}/health`, connections: 1, duration: 5 });
    // A short warm-up of every path first, so no case pays for first-use compilation.
    for (const setupRequest of [rotating(limited), rotating(unlimited)]) await load({ url, connections: 4, duration: 2, setupRequest });
    const cases: Array<[string, Parameters<typeof load>[0]]> = [
      ["session", { url, connections: 16, duration: 10, headers: { cookie: `authjs.session-token=${token}` } }],
      ["key, limit off (64 keys)", { url, connections: 16, duration: 10, setupRequest: rotating(unlimited) }],
      ["key, limit on (64 keys)", { url, connections: 16, duration: 10, setupRequest: rotating(limited) }],
      ["key at its limit → 429", { url, connections: 16, duration: 10, headers: { authorization: `Bearer ${atLimit}` } }],
      ["key, limit off, c1", { url, connections: 1, duration: 5, setupRequest: rotating(unlimited) }],
      ["key, limit on, c1", { url, connections: 1, duration: 5, setupRequest: rotating(limited) }],
    ];
    const rows: Row[] = [row("GET /health (baseline)", 16, baseline, baseline)];
    const data: Record<string, LoadResult> = {};
    for (const [name, options] of cases) {
      const result = await load(options);
      data[name] = result;
      rows.push(row(name, options.connections, result, options.connections === 1 ? base1 : baseline));
    }
    rows.push(row("GET /health (baseline), c1", 1, base1, base1));
    return { title: "Identity: GET /me beside GET /health", rows, data };
  },
};
