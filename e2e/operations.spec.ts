import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { Readable } from "node:stream";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { expect, test } from "@playwright/test";
import { createParser } from "eventsource-parser";
import postgres from "postgres";
import { getMetricsFromStream, type PromMetrics } from "prom2javascript";
import sharp from "sharp";
import { readPgliteLock } from "../db/pglite-lock";

/**
 * The production build as an operator runs it: `npm start` in a child process (not Playwright's
 * web server), on its own port and data directory, stopped with a real SIGTERM to npm. No browser.
 */

const MODEL = "fal-ai/flux/schnell";

type Server = {
  npm: ChildProcess;
  port: number;
  base: string;
  dataDir: string;
  /** Everything it wrote, stdout and stderr. */
  output: () => string;
  /** JSON log lines with this `msg`. */
  logLines: (msg: string) => Record<string, unknown>[];
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
};

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

/** Variables of the Playwright process that would choose for the server; each test sets its own. */
const INHERITED_OUT = ["APP_URL", "AUTH_URL", "PORT", "HOSTNAME", "DATABASE_URL", "DATA_DIR", "E2E", "STORAGE_DRIVER", "S3_BUCKET"];

/** `npm start` with `env`; `portVia` says how the port reaches it (`npm start -- -p N`, or PORT=N). */
function npmStart(
  env: Record<string, string>,
  { port, portVia, dataDir }: { port: number; portVia: "flag" | "env"; dataDir: string },
): Server {
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([k]) => !INHERITED_OUT.includes(k)));
  const npm = spawn("npm", ["start", ...(portVia === "flag" ? ["--", "-p", String(port)] : [])], {
    env: {
      ...inherited,
      NODE_ENV: "production",
      DATA_DIR: dataDir,
      LOG_LEVEL: "info",
      AUTH_TRUST_HOST: "true",
      ...(portVia === "env" ? { PORT: String(port) } : {}),
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let text = "";
  npm.stdout!.on("data", (b: Buffer) => (text += b.toString()));
  npm.stderr!.on("data", (b: Buffer) => (text += b.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    npm.once("exit", (code, signal) => resolve({ code, signal })),
  );
  const logLines = (msg: string) =>
    text
      .split("\n")
      .filter((l) => l.startsWith("{"))
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .filter((l) => l.msg === msg);
  return { npm, port, base: `http://127.0.0.1:${port}`, dataDir, output: () => text, logLines, exited };
}

async function healthy(server: Server): Promise<void> {
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (server.npm.exitCode !== null) throw new Error(`the server exited during start-up:\n${server.output()}`);
    const res = await fetch(`${server.base}/health`).catch(() => null);
    if (res?.ok) return;
    if (Date.now() > deadline) throw new Error(`the server did not become healthy:\n${server.output()}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

async function stop(server: Server) {
  if (server.npm.exitCode === null && server.npm.signalCode === null) server.npm.kill("SIGTERM");
  return server.exited;
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
const parentOf = (pid: number) => Number(readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ")[1]);

/** `npm run user:create` against the running server's database. */
function userWithKey(dataDir: string): { userId: string; apiKey: string } {
  const out = execFileSync(
    "node_modules/.bin/tsx",
    ["scripts/user-create.ts", "--email", `ops-${Date.now()}@example.test`, "--credits", "100"],
    {
      env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: "" },
    },
  );
  return JSON.parse(out.toString());
}

/** The running server's embedded database, over the loopback port it publishes. */
async function withServerDb<T>(dataDir: string, fn: (sql: postgres.Sql) => Promise<T>): Promise<T> {
  const lock = readPgliteLock(dataDir);
  if (!lock) throw new Error("no pglite.lock: the server is not running");
  const sql = postgres(`postgres://postgres@127.0.0.1:${lock.port}/postgres`, { max: 1, onnotice: () => {} });
  try {
    return await fn(sql);
  } finally {
    await sql.end();
  }
}

const auth = (apiKey: string) => ({ authorization: `Bearer ${apiKey}`, "content-type": "application/json" });

test.describe("a non-default port", () => {
  test("PORT=… with no APP_URL: result, status, upload and sign-in links all point at that port", async () => {
    test.setTimeout(150_000);
    const port = await freePort();
    const dataDir = mkdtempSync(path.join(tmpdir(), "gw-ops-port-"));
    const server = npmStart({}, { port, portVia: "env", dataDir });
    try {
      await healthy(server);
      const origin = `http://localhost:${port}`;
      expect(server.logLines("APP_URL is not set: links use the listening address")).toEqual([expect.objectContaining({ appUrl: origin })]);
      const { apiKey } = userWithKey(dataDir);

      const run = await fetch(`${server.base}/run/${MODEL}`, {
        method: "POST",
        headers: auth(apiKey),
        body: JSON.stringify({ prompt: "a lighthouse" }),
      });
      expect(run.status).toBe(200);
      const result = (await run.json()) as { images: { url: string }[]; request_id: string };
      expect(result.images[0]!.url.startsWith(`${origin}/files/`)).toBe(true);
      // The link works: the file is served on that port.
      expect((await fetch(result.images[0]!.url.replace("localhost", "127.0.0.1"))).status).toBe(200);

      const queued = await fetch(`${server.base}/queue/${MODEL}`, {
        method: "POST",
        headers: auth(apiKey),
        body: JSON.stringify({ prompt: "a harbour" }),
      });
      const urls = (await queued.json()) as Record<string, string>;
      expect(urls.status_url).toBe(`${origin}/queue/${MODEL}/requests/${urls.request_id}/status`);

      const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: "#c33" } })
        .png()
        .toBuffer();
      const form = new FormData();
      form.set("file", new Blob([new Uint8Array(png)], { type: "image/png" }), "pixel.png");
      const upload = await fetch(`${server.base}/me/uploads`, {
        method: "POST",
        headers: { authorization: `Bearer ${apiKey}` },
        body: form,
      });
      expect(upload.status).toBe(201);
      expect(((await upload.json()) as { url: string }).url.startsWith(`${origin}/files/u/`)).toBe(true);

      // A sign-in link, through Auth.js's own endpoints (CSRF token and cookie, then the e-mail form).
      const csrf = await fetch(`${server.base}/api/auth/csrf`);
      const { csrfToken } = (await csrf.json()) as { csrfToken: string };
      const cookie = csrf.headers
        .getSetCookie()
        .map((c) => c.split(";")[0])
        .join("; ");
      const email = `link-${Date.now()}@example.test`;
      const signIn = await fetch(`${server.base}/api/auth/signin/nodemailer`, {
        method: "POST",
        headers: { cookie, "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ csrfToken, email, callbackUrl: "/dashboard" }),
        redirect: "manual",
      });
      expect(signIn.status).toBe(302);
      const [mail] = await withServerDb(dataDir, (sql) => sql<{ url: string }[]>`select url from dev_mail where "to" = ${email}`);
      // Sign-in links follow the host the request came to when it names this machine (127.0.0.1
      // here; lib/sign-in/origin.ts), on that port.
      expect(mail!.url.startsWith(`${server.base}/api/auth/callback/nodemailer?`)).toBe(true);
    } finally {
      await stop(server);
    }
  });
});

/** Reads an event stream until it ends; returns its events and when the end came. */
async function readStream(res: Response, onEvent: (event: string) => void = () => {}) {
  const events: { event: string; id?: string; data: unknown }[] = [];
  const parser = createParser({
    onEvent: (msg) => {
      events.push({ event: msg.event ?? "message", ...(msg.id ? { id: msg.id } : {}), data: JSON.parse(msg.data) });
      onEvent(msg.event ?? "message");
    },
  });
  const decoder = new TextDecoder();
  const reader = res.body!.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parser.feed(decoder.decode(value, { stream: true }));
  }
  return { events, endedAt: Date.now() };
}

test.describe("SIGTERM to npm start", () => {
  test("drains: the stream gets `reconnect`, a run inside the grace answers 200, one past it 504 timeout and goes on in the queue; nothing is orphaned", async () => {
    test.setTimeout(180_000);
    const port = await freePort();
    const dataDir = mkdtempSync(path.join(tmpdir(), "gw-ops-term-"));
    const GRACE_MS = 3000;
    const server = npmStart({ SHUTDOWN_GRACE_MS: String(GRACE_MS) }, { port, portVia: "flag", dataDir });
    let restarted: Server | undefined;
    try {
      await healthy(server);
      const { userId, apiKey } = userWithKey(dataDir);
      // npm execs next start: the server is npm's own child, so npm's signal reaches it.
      const serverPid = readPgliteLock(dataDir)!.pid;
      expect(parentOf(serverPid)).toBe(server.npm.pid);

      // A queued job followed on its status stream, and two sync runs: a quick one and a slow one.
      const queued = (await (
        await fetch(`${server.base}/queue/${MODEL}`, {
          method: "POST",
          headers: auth(apiKey),
          body: JSON.stringify({ prompt: "slow [latency:60000]" }),
        })
      ).json()) as Record<string, string>;
      const stream = await fetch(`${server.base}/queue/${MODEL}/requests/${queued.request_id}/status/stream`, {
        headers: { authorization: `Bearer ${apiKey}` },
      });
      expect(stream.status).toBe(200);
      let streamOpen!: () => void;
      const firstEvent = new Promise<void>((resolve) => (streamOpen = resolve));
      const streamRead = readStream(stream, () => streamOpen());
      await firstEvent;
      const run = (prompt: string) =>
        fetch(`${server.base}/run/${MODEL}`, { method: "POST", headers: auth(apiKey), body: JSON.stringify({ prompt }) }).then(
          async (res) => ({
            status: res.status,
            body: (await res.json()) as Record<string, unknown>,
            at: Date.now(),
          }),
        );
      const quick = run("quick [latency:1500]");
      const slow = run("slow [latency:12000]");
      // Both sync runs are at the provider before the signal.
      await expect
        .poll(
          () =>
            withServerDb(
              dataDir,
              (sql) =>
                sql`select id from generation_requests where user_id = ${userId} and provider_request_id is not null and mode = 'sync'`,
            ).then((r) => r.length),
          { timeout: 10_000 },
        )
        .toBe(2);

      const signalledAt = Date.now();
      process.kill(server.npm.pid!, "SIGTERM");

      const { events, endedAt } = await streamRead;
      expect(events.at(-1)).toEqual({ event: "reconnect", data: { reason: "shutdown", message: expect.any(String) } });
      expect(endedAt - signalledAt).toBeLessThan(2000);

      const quickAnswer = await quick;
      expect(quickAnswer.status).toBe(200);
      expect(quickAnswer.body).toMatchObject({ images: [expect.objectContaining({ url: expect.stringContaining("/files/") })] });

      const slowAnswer = await slow;
      expect(slowAnswer.status).toBe(504);
      const slowId = slowAnswer.body.requestId as string;
      expect(slowAnswer.body).toEqual({
        success: false,
        error: "timeout",
        message: expect.any(String),
        requestId: slowId,
        request_id: slowId,
        status: "in_progress",
      });
      expect(slowAnswer.at - signalledAt).toBeGreaterThanOrEqual(GRACE_MS - 200);

      const exit = await server.exited;
      expect(exit.code === 143 || exit.signal === "SIGTERM").toBe(true);
      expect(alive(serverPid)).toBe(false);
      expect(server.logLines("shutting down: no new connections, draining")).toEqual([
        expect.objectContaining({ signal: "SIGTERM", graceMs: GRACE_MS }),
      ]);
      expect(server.logLines("shutdown drained")).toEqual([
        expect.objectContaining({ streamsEnded: 1, syncRunsFinished: 1, syncRunsHandedOver: 1 }),
      ]);
      expect(server.logLines("shutdown complete")).toEqual([expect.objectContaining({ exitCode: 143 })]);

      // The database as the server left it (closed cleanly, so it opens here): the quick run
      // completed; the slow one is still running at the provider and handed to the queue.
      const db = await PGlite.create(path.join(dataDir, "pglite"));
      try {
        const jobs = await db.query<{ id: string; status: string; provider_request_id: string | null }>(
          "select id, status, provider_request_id from generation_requests where user_id = $1 and mode = 'sync'",
          [userId],
        );
        const byId = new Map(jobs.rows.map((r) => [r.id, r]));
        expect(byId.get(quickAnswer.body.request_id as string)).toMatchObject({ status: "completed" });
        expect(byId.get(slowId)?.status).not.toMatch(/^(completed|failed|cancelled)$/);
        expect(byId.get(slowId)?.provider_request_id).toBeTruthy();
        const handed = await db.query<{ status: string }>("select status from job_runs where event_id = $1", [`generation:${slowId}`]);
        expect(handed.rows).toEqual([{ status: "queued" }]);
      } finally {
        await db.close();
      }

      // Back up on the same data: the queue finishes the handed-over job.
      restarted = npmStart({}, { port, portVia: "flag", dataDir });
      await healthy(restarted);
      await expect
        .poll(
          async () =>
            (
              (await (
                await fetch(`${restarted!.base}/queue/${MODEL}/requests/${slowId}/status`, {
                  headers: { authorization: `Bearer ${apiKey}` },
                })
              ).json()) as { status: string }
            ).status,
          { timeout: 30_000, intervals: [500] },
        )
        .toBe("completed");
    } finally {
      await stop(server);
      if (restarted) await stop(restarted);
    }
  });
});

test.describe("SIGKILL to the embedded default under load", () => {
  test("the data directory opens again and the ledger is exact: every answered charge kept, every balance its ledger's sum", async () => {
    test.setTimeout(240_000);
    const port = await freePort();
    const dataDir = mkdtempSync(path.join(tmpdir(), "gw-ops-kill-"));
    const server = npmStart({ LOG_LEVEL: "warn" }, { port, portVia: "flag", dataDir });
    let restarted: Server | undefined;
    try {
      await healthy(server);
      const users = [userWithKey(dataDir), userWithKey(dataDir)];
      // The server process itself (PGlite's thread is in it): a crash, not npm going away.
      const serverPid = readPgliteLock(dataDir)!.pid;

      // 48 closed-loop sync runs of 0.3 s over the two users until the kill.
      const answered: { userId: string; id: string }[] = [];
      let killed = false;
      const clients = Array.from({ length: 48 }, async (_, i) => {
        const user = users[i % users.length]!;
        while (!killed) {
          const res = await fetch(`${server.base}/run/${MODEL}`, {
            method: "POST",
            headers: auth(user.apiKey),
            body: JSON.stringify({ prompt: `kill ${i} [latency:300]` }),
          }).catch(() => null);
          const body = res?.ok ? ((await res.json().catch(() => null)) as { request_id?: string } | null) : null;
          if (!killed && body?.request_id) answered.push({ userId: user.userId, id: body.request_id });
        }
      });
      await expect.poll(() => answered.length, { timeout: 60_000 }).toBeGreaterThanOrEqual(100);
      const answeredBeforeKill = [...answered];
      process.kill(serverPid, "SIGKILL");
      killed = true;
      await Promise.all(clients);
      await server.exited;

      restarted = npmStart({ LOG_LEVEL: "warn" }, { port, portVia: "flag", dataDir });
      await healthy(restarted);
      await withServerDb(dataDir, async (sql) => {
        for (const { userId } of users) {
          const [balance] = await sql`select credits::bigint as credits from balances where user_id = ${userId}`;
          const [sum] = await sql`select coalesce(sum(amount), 0)::bigint as total from credit_transactions where user_id = ${userId}`;
          expect(BigInt(balance!.credits), "balance = sum of the ledger").toBe(BigInt(sum!.total));
          expect(BigInt(balance!.credits) >= 0n).toBe(true);
        }
        const doubled = await sql`select generation_id, type, count(*)::int as n from credit_transactions
          where generation_id is not null group by generation_id, type having count(*) > 1`;
        expect(doubled, "no job reserved or refunded twice").toEqual([]);
        const ids = answeredBeforeKill.map((a) => a.id);
        const kept = await sql`select g.id from generation_requests g
          join credit_transactions t on t.generation_id = g.id and t.type = 'generation_reserve'
          where g.status = 'completed' and g.id = any(${ids})`;
        expect(kept.length, "every run answered 200 before the kill is completed and charged").toBe(ids.length);
      });
    } finally {
      if (server.npm.exitCode === null && server.npm.signalCode === null) server.npm.kill("SIGKILL");
      if (restarted) await stop(restarted);
    }
  });
});

/** A /metrics scrape read by a Prometheus text-format parser (NaN, which it cannot read, dropped first). */
async function scrape(base: string, token: string): Promise<PromMetrics> {
  const res = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${token}` } });
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
  return getMetricsFromStream(Readable.from([(await res.text()).replace(/^.* NaN\n/gm, "")]));
}

/** A series' value (counter, gauge) or count (histogram); 0 when absent. */
function sample(families: PromMetrics, name: string, labels: Record<string, string> = {}): number {
  const series = (families[name]?.data ?? []) as { labels: Record<string, string>; value?: number; count?: number }[];
  const found = series.find((s) => Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  return found?.value ?? found?.count ?? 0;
}

test.describe("watching it run", () => {
  test("/health reports each part, S3 that cannot be reached is 503 and degraded (never 500), /metrics parses and counts, each API request logs one line", async () => {
    test.setTimeout(150_000);
    const port = await freePort();
    const dataDir = mkdtempSync(path.join(tmpdir(), "gw-ops-watch-"));
    const TOKEN = "ops-metrics-token-0123456789abcdef";
    // Storage is S3 on a port where nothing listens: a valid setting, so the server starts.
    const s3 = {
      STORAGE_DRIVER: "s3",
      S3_BUCKET: "gw-ops",
      S3_ENDPOINT: "http://127.0.0.1:9",
      S3_ACCESS_KEY_ID: "ops",
      S3_SECRET_ACCESS_KEY: "ops-secret",
    };
    const server = npmStart({ METRICS_TOKEN: TOKEN, ...s3 }, { port, portVia: "flag", dataDir });
    try {
      await healthy(server);
      const { userId, apiKey } = userWithKey(dataDir);

      const health = await fetch(`${server.base}/health`);
      expect(health.status).toBe(200);
      const parts = (await health.json()) as { status: string; uptime: number; parts: Record<string, { status: string; reason?: string }> };
      expect(parts).toMatchObject({
        status: "degraded",
        uptime: expect.any(Number),
        parts: {
          database: { status: "ok" },
          storage: { status: "down", driver: "s3", reason: "unreachable" },
          jobs: { status: "ok" },
          providers: { status: "ok" },
          payments: { status: "ok" },
        },
      });

      const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: "#3c3" } })
        .png()
        .toBuffer();
      const form = new FormData();
      form.set("file", new Blob([new Uint8Array(png)], { type: "image/png" }), "pixel.png");
      const upload = await fetch(`${server.base}/me/uploads`, {
        method: "POST",
        headers: { authorization: `Bearer ${apiKey}` },
        body: form,
      });
      expect(upload.status).toBe(503);
      expect(upload.headers.get("retry-after")).toBe("5");
      expect(await upload.json()).toEqual({
        success: false,
        error: "storage_unavailable",
        message: expect.any(String),
        failure: "unreachable",
      });

      // A generation still answers; its files keep the provider's links.
      const run = await fetch(`${server.base}/run/${MODEL}`, {
        method: "POST",
        headers: auth(apiKey),
        body: JSON.stringify({ prompt: "a lighthouse" }),
      });
      expect(run.status).toBe(200);
      const result = (await run.json()) as { images: { url: string }[] };
      expect(result.images[0]!.url).not.toContain("/files/");
      expect(result.images[0]!.url).toContain("/sim/");
      const runId = run.headers.get("x-request-id");

      expect((await fetch(`${server.base}/metrics`)).status).toBe(401);
      const families = await scrape(server.base, TOKEN);
      expect(sample(families, "gateway_http_requests_total", { route: "/run/{modelId}", method: "POST", status: "200" })).toBe(1);
      expect(sample(families, "gateway_http_requests_total", { route: "/me/uploads", method: "POST", status: "503" })).toBe(1);
      expect(sample(families, "gateway_http_request_duration_seconds", { route: "/run/{modelId}", method: "POST", status: "200" })).toBe(1);
      expect(sample(families, "gateway_generations_total", { model: MODEL, status: "completed" })).toBe(1);
      expect(sample(families, "gateway_provider_request_duration_seconds", { provider: "local", operation: "submit", outcome: "ok" })).toBe(
        1,
      );
      expect(sample(families, "gateway_provider_circuit_state", { provider: "local", state: "closed" })).toBe(1);
      expect(sample(families, "gateway_ledger_credits", { total: "used" })).toBeGreaterThan(0);
      expect(sample(families, "gateway_ledger_credits", { total: "issued" })).toBe(100 * 10_000);
      expect(families.gateway_jobs_queue_depth?.type).toBe("gauge");
      expect(families.gateway_sse_streams_open?.type).toBe("gauge");

      const lines = server.logLines("request");
      expect(lines.filter((l) => l.route === "/run/{modelId}")).toEqual([
        expect.objectContaining({ level: "info", requestId: runId, method: "POST", status: 200, userId, durationMs: expect.any(Number) }),
      ]);
      expect(lines.filter((l) => l.route === "/me/uploads")).toEqual([expect.objectContaining({ status: 503, userId })]);
      expect(server.output()).not.toContain(apiKey);
      expect(server.output()).not.toContain("ops-secret");
      expect(server.output()).not.toContain(TOKEN);
      expect(server.output()).not.toContain('"status":500');
    } finally {
      await stop(server);
    }
  });
});

test.describe("bad settings", () => {
  for (const [what, env, message] of [
    ["DATABASE_URL that is not a URL", { DATABASE_URL: "notaurl" }, "DATABASE_URL: must be a PostgreSQL URL"],
    ["STORAGE_DRIVER=s3 without S3_BUCKET", { STORAGE_DRIVER: "s3" }, "S3_BUCKET: required when STORAGE_DRIVER=s3"],
    [
      "half a pair of S3 keys",
      { S3_BUCKET: "b", S3_ACCESS_KEY_ID: "AKIAEXAMPLE" },
      "S3_SECRET_ACCESS_KEY: required when S3_ACCESS_KEY_ID is set",
    ],
  ] as const) {
    test(`${what} stops start-up, naming the variable`, async () => {
      const port = await freePort();
      const server = npmStart(
        { ...env, ALLOW_LOCAL_PAYMENTS: "true" },
        { port, portVia: "flag", dataDir: mkdtempSync(path.join(tmpdir(), "gw-ops-bad-")) },
      );
      const exit = await Promise.race([server.exited, new Promise<null>((r) => setTimeout(() => r(null), 60_000))]);
      try {
        expect(exit?.code).toBe(1);
        expect(server.output()).toContain(message);
        expect(server.output()).not.toContain("notaurl");
        expect(await fetch(`http://127.0.0.1:${port}/health`).catch(() => "refused")).toBe("refused");
      } finally {
        await stop(server);
      }
    });
  }

  test("an APP_URL on this machine but another port starts, with one warning naming APP_URL", async () => {
    const port = await freePort();
    const server = npmStart(
      { APP_URL: "http://localhost:3000" },
      { port, portVia: "flag", dataDir: mkdtempSync(path.join(tmpdir(), "gw-ops-mismatch-")) },
    );
    try {
      await healthy(server);
      const warnings = server
        .output()
        .split("\n")
        .filter((l) => l.includes("APP_URL points at port 3000"));
      expect(warnings).toHaveLength(1);
      expect(JSON.parse(warnings[0]!)).toMatchObject({ level: "warn", variable: "APP_URL", listeningPort: port });
    } finally {
      await stop(server);
    }
  });
});
