import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import postgres from "postgres";

export type BenchServer = {
  baseUrl: string;
  databaseUrl: string;
  stop: () => Promise<void>;
  /** SIGKILL of the whole server (a crash: no shutdown, no hand-over); its database stays. */
  kill: () => Promise<void>;
  /** CPU seconds used so far by the server's processes and by PostgreSQL's (all its backends). */
  cpu: () => { server: number; postgres: number };
  /** Resident memory of the server's processes now, in MB. */
  rssMb: () => number;
  /** Its /metrics now (Prometheus text). */
  scrape: () => Promise<string>;
};

/**
 * The servers run with /metrics on, as deployed: recording costs a few µs a request
 * (bench/RESULTS.md, "issue 20"), and the field bench reads the event-loop delay and GC time there.
 */
const METRICS_TOKEN = "bench-metrics-token";

/** VmRSS of every process in the server's process group, in MB. */
function rssOf(serverGroup: number): number {
  let kb = 0;
  for (const pid of readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      if (Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[2]) !== serverGroup) continue;
      kb += Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0);
    } catch {
      // gone meanwhile
    }
  }
  return kb / 1024;
}

/** utime + stime of every process, from /proc (Linux), grouped: the server's process group, PostgreSQL. */
function cpuOf(serverGroup: number): { server: number; postgres: number } {
  const total = { server: 0, postgres: 0 };
  for (const pid of readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    } catch {
      continue; // gone meanwhile
    }
    const comm = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const seconds = (Number(fields[11]) + Number(fields[12])) / 100; // clock ticks (USER_HZ = 100)
    if (Number(fields[2]) === serverGroup) total.server += seconds;
    else if (comm.startsWith("postgres")) total.postgres += seconds;
  }
  return total;
}

const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

function withDatabase(url: string, db: string) {
  const u = new URL(url);
  u.pathname = `/${db}`;
  return u.toString();
}

/** Builds first, unless BENCH_SKIP_BUILD=1 and a build exists. */
export function ensureBuild() {
  // A build left over from older sources would measure old code: rebuild unless told the build is current.
  if (existsSync(".next/BUILD_ID") && process.env.BENCH_SKIP_BUILD === "1") return;
  console.log("building (next build)…");
  const r = spawnSync("npx", ["next", "build"], { stdio: "inherit" });
  if (r.status !== 0) throw new Error("next build failed");
}

/**
 * A fresh PostgreSQL database and `next start` serving the production build on it; with
 * `databaseUrl`, another instance on that database (which it then leaves in place).
 */
export async function startServer(
  port: number,
  extraEnv: Record<string, string> = {},
  shared?: { databaseUrl: string },
): Promise<BenchServer> {
  const dbName = shared ? null : `gw_bench_${Date.now()}`;
  if (dbName) {
    const admin = postgres(ADMIN_URL, { max: 1, onnotice: () => {} });
    await admin.unsafe(`create database "${dbName}"`);
    await admin.end();
  }
  const databaseUrl = shared?.databaseUrl ?? withDatabase(ADMIN_URL, dbName!);
  const baseUrl = `http://127.0.0.1:${port}`;
  // `npm start`, as the product is served (its Node options included). BENCH_CPU_PROF=<dir>: the
  // same server under `node --cpu-prof` (not allowed in NODE_OPTIONS), one .cpuprofile per
  // instance written to <dir> when it stops (open in Chrome DevTools or speedscope);
  // BENCH_TRACE_GC=1 instead logs every garbage collection. BENCH_NODE_ARGS="--flag …": the same
  // server with other V8 or Node flags (before those experiments go into `npm start`).
  const profileDir = process.env.BENCH_CPU_PROF;
  const nodeArgs = [
    ...(process.env.BENCH_TRACE_GC ? ["--trace-gc"] : profileDir ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] : []),
    ...(process.env.BENCH_NODE_ARGS?.split(/\s+/).filter(Boolean) ?? []),
  ];
  const [command, args] = nodeArgs.length
    ? ["node", ["--max-semi-space-size=32", ...nodeArgs, "node_modules/next/dist/bin/next", "start", "-H", "127.0.0.1", "-p", String(port)]]
    : ["npm", ["start", "--", "-p", String(port)]];
  // The monotonic clock at the spawn (µs): where a server's --trace-gc times start, give or take its boot.
  if (nodeArgs.length) console.log(`server on port ${port} spawned at hrtime ${process.hrtime.bigint() / 1000n} µs`);
  const child: ChildProcess = spawn(command, args, {
    env: {
      ...process.env,
      HOSTNAME: "127.0.0.1",
      NODE_ENV: "production",
      DATABASE_URL: databaseUrl,
      // Pools sized for the database's two cores (BENCH_POOL_MAX to change): postgres-js pipelines
      // statements onto busy connections, so a few connections batch a burst into few socket writes
      // and keep few PostgreSQL backends busy, where 20 woke one backend per statement
      // (docs/database.md, "Pool size"). Each instance opens this many twice (the relaxed twin).
      DATABASE_POOL_MAX: process.env.BENCH_POOL_MAX ?? "4",
      APP_URL: baseUrl,
      AUTH_TRUST_HOST: "true",
      // A production setup on the local payment provider: allowed for the bench (no payments run).
      ALLOW_LOCAL_PAYMENTS: "true",
      METRICS_TOKEN,
      // BENCH_LOG_LEVEL=info: every request's log line too (what the server was asked, when).
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? "warn",
      ...extraEnv,
    },
    stdio: ["ignore", "inherit", "inherit"],
    detached: true,
  });
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      const res = await fetch(`${baseUrl}/health`);
      if (res.ok) break;
    } catch {
      // Not up yet.
    }
    if (Date.now() > deadline) throw new Error("server did not become healthy");
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    baseUrl,
    databaseUrl,
    cpu: () => cpuOf(child.pid!),
    rssMb: () => rssOf(child.pid!),
    scrape: async () => {
      const res = await fetch(`${baseUrl}/metrics`, { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } });
      if (!res.ok) throw new Error(`/metrics answered ${res.status}`);
      return res.text();
    },
    kill: async () => {
      const exited = new Promise((r) => (child.exitCode !== null || child.signalCode !== null ? r(null) : child.once("exit", r)));
      try {
        process.kill(-child.pid!, "SIGKILL");
      } catch {
        // Already gone.
      }
      await exited;
    },
    stop: async () => {
      const exited = new Promise((r) => (child.exitCode !== null || child.signalCode !== null ? r(null) : child.once("exit", r)));
      try {
        process.kill(-child.pid!, "SIGTERM");
      } catch {
        // Already gone.
      }
      // The database goes only after the server (its background loops still query it).
      await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
      await new Promise((r) => setTimeout(r, 300));
      if (!dbName) return;
      const cleanup = postgres(ADMIN_URL, { max: 1, onnotice: () => {} });
      await cleanup.unsafe(`drop database if exists "${dbName}" with (force)`).catch(() => {});
      await cleanup.end();
    },
  };
}
