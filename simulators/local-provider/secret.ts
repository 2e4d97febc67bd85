import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { env } from "@/lib/core/env";

const cache = new Map<string, string>();

/**
 * The local provider's own secret: it signs the simulator's webhooks (Standard Webhooks, the
 * `whsec_` form) and its media links. LOCAL_PROVIDER_SECRET when set; otherwise one generated on
 * first use and kept in DATA_DIR, so webhooks in flight and links already handed out stay valid
 * across restarts. Several instances sharing one database must share LOCAL_PROVIDER_SECRET.
 */
export function localProviderSecret(): string {
  const configured = env().LOCAL_PROVIDER_SECRET;
  if (configured) return configured;
  const file = path.resolve(env().DATA_DIR, "local-provider.secret");
  let secret = cache.get(file);
  if (secret) return secret;
  try {
    secret = readFileSync(file, "utf8").trim();
  } catch {
    mkdirSync(path.dirname(file), { recursive: true });
    const fresh = `whsec_${randomBytes(32).toString("base64")}`;
    try {
      // `wx`: if another process wrote it first, keep theirs.
      writeFileSync(file, fresh + "\n", { flag: "wx", mode: 0o600 });
      secret = fresh;
    } catch {
      secret = readFileSync(file, "utf8").trim();
    }
  }
  cache.set(file, secret);
  return secret;
}
