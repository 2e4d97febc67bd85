import { randomBytes } from "node:crypto";
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { env } from "@/lib/core/env";
import { log } from "@/lib/core/logger";

let cached: string | undefined;

/**
 * The secret Auth.js hashes magic-link tokens and signs CSRF tokens with, and from which the
 * webhook-secret encryption key is derived (lib/auth/secret-box.ts). AUTH_SECRET when set;
 * otherwise one generated at first start and kept in DATA_DIR/auth-secret (mode 0600), so sessions
 * and stored secrets survive restarts of the embedded setup. Several instances on one PostgreSQL
 * must share AUTH_SECRET: a magic link sent by one instance is verified by whichever serves the click.
 */
export function authSecret(): string {
  if (cached) return cached;
  const configured = env().AUTH_SECRET;
  if (configured) return (cached = configured);
  const file = path.resolve(env().DATA_DIR, "auth-secret");
  try {
    cached = readFileSync(file, "utf8").trim();
  } catch {
    mkdirSync(path.dirname(file), { recursive: true });
    try {
      // `wx` fails if another process created it first; then read theirs.
      writeFileSync(file, randomBytes(32).toString("base64url") + "\n", { flag: "wx", mode: 0o600 });
      chmodSync(file, 0o600);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    }
    cached = readFileSync(file, "utf8").trim();
  }
  if (env().DATABASE_URL) {
    log.warn("AUTH_SECRET is not set: using a secret kept in DATA_DIR; set AUTH_SECRET if several instances share the database");
  }
  return cached;
}
