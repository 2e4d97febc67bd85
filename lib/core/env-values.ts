import { z } from "zod";
import { parseTrustProxy } from "@/lib/core/trust-proxy";

/** The value types and checks `lib/core/env-schema.ts` declares its variables with. */

export const bool = z
  .enum(["true", "false", "1", "0", "yes", "no", "on", "off", ""])
  .transform((v) => v === "true" || v === "1" || v === "yes" || v === "on");
export const int = (def: number) => z.coerce.number().int().nonnegative().default(def);
export const csv = z
  .string()
  .default("")
  .transform((v) =>
    v
      .split(",")
      .map((s) => s.trim().toLowerCase())
      .filter(Boolean),
  );
export const optionalUrl = z.url().optional();
export const isJsonObject = (text: string) => {
  try {
    const v: unknown = JSON.parse(text);
    return typeof v === "object" && v !== null && !Array.isArray(v);
  } catch {
    return false;
  }
};

/**
 * What postgres-js can connect with: a postgres:// or postgresql:// URL, whose host part may list
 * several hosts (`h1:5432,h2:5432`, parsed as postgres-js does) or be empty (`?host=/run/postgresql`).
 */
export const isPostgresUrl = (v: string) => {
  const match = /^(postgres(?:ql)?:\/\/)((?:[^@/?#]*@)?)([^/?#]*)(.*)$/.exec(v);
  if (!match) return false;
  const [, scheme, auth, hosts, rest] = match;
  try {
    new URL(`${scheme}${auth}${hosts ? hosts.split(",")[0] : "localhost"}${rest}`);
    return true;
  } catch {
    return false;
  }
};

export const validTrustProxy = (v: string) => {
  try {
    parseTrustProxy(v);
    return true;
  } catch {
    return false;
  }
};

/** Loopback-only origins are a developer's machine; anything else may be reached by others. */
const isLoopbackUrl = (url: string) => {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, "");
  return host === "localhost" || host.endsWith(".localhost") || /^127\.\d+\.\d+\.\d+$/.test(host) || host === "::1";
};

/** What the local payment provider must not run on unless told (ALLOW_LOCAL_PAYMENTS). */
export const isProductionDeployment = (v: { DATABASE_URL?: string; NODE_ENV: string; APP_URL: string }) =>
  v.DATABASE_URL !== undefined || (v.NODE_ENV === "production" && !isLoopbackUrl(v.APP_URL));
