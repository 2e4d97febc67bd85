import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { defineConfig, devices } from "@playwright/test";

const port = Number(process.env.E2E_PORT ?? 3210);
export const baseURL = `http://127.0.0.1:${port}`;
// E2E_PROVIDER=fal: the app runs on its fal client against the fal-protocol simulator (npm run
// sim:fal) for the field suite; the rest does not depend on the provider, so the page-only checks
// (a11y, /docs: a third of the time) run there too, balancing the two side-by-side runs.
const onFalRun = /(field|a11y|docs)\.spec\.ts$/;
// E2E_PROVIDER=routes: fal and Replicate both, each its protocol simulator on loopback, for the
// failover suite (a model with two routes; PROVIDER_COOLDOWN_MS=0 keeps its tests independent).
// The admin pages, the landing page, the catalog and the locale switch run no generation, so they
// go there too: the local run is the longer of the two side-by-side legs (scripts/test-e2e.mjs),
// and this one was its shortest part.
const onRoutesRun = /(failover|admin-pages|admin-money|auth-admin|home|catalog|locale)\.spec\.ts$/;
const provider = process.env.E2E_PROVIDER === "fal" ? "fal" : process.env.E2E_PROVIDER === "routes" ? "routes" : "local";
const sim = `http://127.0.0.1:${port + 1}`;
const replicateSim = `http://127.0.0.1:${port + 2}`;
const falEnv = {
  PROVIDER: "fal",
  FAL_KEY: "e2e:secret",
  FAL_QUEUE_URL: sim,
  FAL_API_URL: `${sim}/v1`,
  FAL_JWKS_URL: `${sim}/.well-known/jwks.json`,
};
const routesEnv = {
  ...falEnv,
  REPLICATE_API_TOKEN: "r8_e2e",
  REPLICATE_API_URL: `${replicateSim}/v1`,
  REPLICATE_WAIT_SECONDS: "2",
  PROVIDER_START_DEADLINE_MS: "2000",
  PROVIDER_COOLDOWN_MS: "0",
};
const falSimServer = {
  command: `npx tsx scripts/sim-fal.ts --port ${port + 1} --key e2e:secret --quiet`,
  url: `${sim}/.well-known/jwks.json`,
  timeout: 60_000,
  reuseExistingServer: false,
};
// A fresh embedded database per run, unless the caller points at one.
const dataDir = process.env.E2E_DATA_DIR ?? mkdtempSync(path.join(tmpdir(), "gw-e2e-"));
process.env.E2E_DATA_DIR = dataDir;

export default defineConfig({
  testDir: "./e2e",
  testMatch: provider === "fal" ? onFalRun : provider === "routes" ? onRoutesRun : undefined,
  // The field suite runs on both providers; the page-only checks and the routes run's specs only there.
  testIgnore: provider === "local" ? [/(a11y|docs)\.spec\.ts$/, onRoutesRun] : undefined,
  // Both runs go side by side (scripts/test-e2e.mjs): each keeps its own artifacts.
  outputDir: `test-results/${provider}`,
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  reporter: [["list"]],
  use: {
    baseURL,
    trace: "retain-on-failure",
    launchOptions: {
      // Debian's Chromium, never a downloaded browser. These flags keep it off the (closed) network.
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--disable-quic",
      ],
    },
  },
  projects: [{ name: "chromium", use: { ...devices["Desktop Chrome"], channel: undefined } }],
  webServer: [
    ...(provider !== "local" ? [falSimServer] : []),
    ...(provider === "routes"
      ? [
          {
            command: `npx tsx scripts/sim-replicate.ts --port ${port + 2} --token r8_e2e --quiet`,
            // 401 without the token: up.
            url: `${replicateSim}/v1/webhooks/default/secret`,
            timeout: 60_000,
            reuseExistingServer: false,
          },
        ]
      : []),
    {
      // The production build: `npm run test:e2e` builds first.
      command: `npx next start -p ${port} -H 127.0.0.1`,
      url: `${baseURL}/health`,
      timeout: 120_000,
      reuseExistingServer: false,
      env: {
        DATA_DIR: dataDir,
        NODE_ENV: "production",
        APP_URL: baseURL,
        AUTH_URL: baseURL,
        AUTH_TRUST_HOST: "true",
        E2E: "1",
        LOG_LEVEL: "warn",
        // Completion callbacks and the fal simulator's media live on loopback.
        ALLOW_PRIVATE_URLS: "true",
        // The field suite fails the provider on purpose; its circuit must not open for the next test.
        PROVIDER_BREAKER_FAILURES: "1000",
        ...(provider === "fal" ? falEnv : provider === "routes" ? routesEnv : {}),
      },
    },
  ],
});
