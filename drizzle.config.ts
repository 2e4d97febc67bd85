import { defineConfig } from "drizzle-kit";
import { cliDatabaseUrl } from "./db/pglite-lock";

// `generate` needs no database. `studio`, `push` and `migrate` reach the same database the app
// uses: DATABASE_URL, or the running app's embedded PGlite on its loopback port.
export default defineConfig({
  dialect: "postgresql",
  schema: "./db/schema/index.ts",
  out: "./drizzle",
  dbCredentials: { url: cliDatabaseUrl() ?? "postgres://postgres@127.0.0.1:5432/postgres" },
  strict: true,
  verbose: true,
});
