// npm run test:e2e: the browser suites on the production build. The local-simulator run, the
// fal-protocol run (field suite, plus the a11y and /docs pages) and the routes run (fal and
// Replicate both: the failover suite, plus the admin pages) use separate servers, ports, databases and output folders,
// so they run side by side, the routes run after the fal run: most of their time is spent waiting
// on simulated provider latency.
// Each line is prefixed with its run; the exit code is non-zero if either run failed.
import { spawn } from "node:child_process";
import readline from "node:readline";

const extra = process.argv.slice(2);

function run(name, env) {
  return new Promise((resolve) => {
    const child = spawn("npx", ["playwright", "test", ...extra], {
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    for (const stream of [child.stdout, child.stderr]) {
      readline.createInterface({ input: stream }).on("line", (line) => console.log(`[${name}] ${line}`));
    }
    child.on("close", (code, signal) => resolve({ name, code: code ?? (signal ? 1 : 0) }));
  });
}

// Two at a time on two cores: the local run beside the fal run and then the routes run (a third
// server and its simulators at once slowed the local run by half).
const results = (
  await Promise.all([
    run("local", { E2E_PORT: process.env.E2E_PORT ?? "3210" }).then((r) => [r]),
    run("fal", { E2E_PROVIDER: "fal", E2E_PORT: process.env.E2E_FAL_PORT ?? "3220" }).then(async (fal) => [
      fal,
      await run("routes", { E2E_PROVIDER: "routes", E2E_PORT: process.env.E2E_ROUTES_PORT ?? "3230" }),
    ]),
  ])
).flat();
const failed = results.filter((r) => r.code !== 0);
for (const r of results) console.log(`${r.name}: ${r.code === 0 ? "passed" : `failed (exit ${r.code})`}`);
process.exit(failed.length ? 1 : 0);
