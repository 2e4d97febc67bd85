import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    environment: "node",
    include: ["**/*.test.ts"],
    exclude: ["node_modules/**", "e2e/**", ".next/**", "data/**"],
    globalSetup: ["./test/global-setup.ts"],
    setupFiles: ["./test/setup.ts"],
    // Each file gets its own database (PGlite from a migrated snapshot, or a Postgres database
    // cloned from a migrated template), so files run in parallel without sharing state.
    pool: "forks",
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    env: { NODE_ENV: "test", LOG_LEVEL: "error" },
    // next-auth imports `next/server` without an extension, which Node's ESM resolver refuses;
    // processing it through Vite resolves it as Next.js's own bundler does.
    server: { deps: { inline: ["next-auth"] } },
  },
});
