import { and, eq, gt, sql } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { preparedQuery } from "@/db/prepared";
import { apiKeys, sessions, users } from "@/db/schema";
import { env } from "@/lib/env";
import { ApiError } from "@/lib/http/errors";
import { hashApiKey, parseApiKey } from "./api-key";
import type { Principal } from "./principal";
import { sessionTokenFrom } from "./session-cookie";

const unauthorized = (message: string) => new ApiError("unauthorized", message);

type UserRow = Pick<typeof users.$inferSelect, "id" | "email" | "name" | "role" | "banned" | "banExpires">;

function assertNotBanned(user: UserRow, now: Date): void {
  if (user.banned && (!user.banExpires || user.banExpires > now)) {
    throw new ApiError("forbidden", "This account is banned");
  }
}

const userColumns = {
  id: users.id,
  email: users.email,
  name: users.name,
  role: users.role,
  banned: users.banned,
  banExpires: users.banExpires,
};

/**
 * The one auth resolver: `Authorization: Bearer <key>` or the Auth.js session cookie. Returns null
 * when the request carries neither; throws 401 for a bad credential and 403 for a banned user.
 * A present-but-bad Authorization header never falls back to the cookie.
 */
export async function resolvePrincipal(db: Executor, req: Request, now = new Date()): Promise<Principal | null> {
  const authorization = req.headers.get("authorization");
  if (authorization !== null) return resolveKey(db, authorization, now);
  const token = sessionTokenFrom(req);
  if (!token) return null;
  assertSameOrigin(req);
  return resolveSession(db, token, now);
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * CSRF guard for cookie-authenticated writes. The session cookie is SameSite=Lax, which already
 * keeps it off cross-site POSTs; this also refuses writes from other origins of the same site
 * (sibling subdomains) and from sandboxed frames. Browsers send Sec-Fetch-Site or Origin on every
 * unsafe request; a client that sends neither is not a browser and has no ambient cookie to abuse.
 */
function assertSameOrigin(req: Request): void {
  if (SAFE_METHODS.has(req.method)) return;
  const site = req.headers.get("sec-fetch-site");
  const origin = req.headers.get("origin");
  const sameOrigin =
    site !== null
      ? site === "same-origin" || site === "none"
      : origin === null || origin === new URL(req.url).origin || origin === new URL(env().APP_URL).origin;
  if (!sameOrigin) throw new ApiError("forbidden", "Cross-site request refused: use an API key, or the dashboard");
}

const keyByHash = preparedQuery((db) =>
  db
    .select({
      user: userColumns,
      key: {
        id: apiKeys.id,
        mode: apiKeys.mode,
        enabled: apiKeys.enabled,
        expiresAt: apiKeys.expiresAt,
        rateLimitEnabled: apiKeys.rateLimitEnabled,
        rateLimitTimeWindow: apiKeys.rateLimitTimeWindow,
        rateLimitMax: apiKeys.rateLimitMax,
      },
    })
    .from(apiKeys)
    .innerJoin(users, eq(users.id, apiKeys.userId))
    .where(eq(apiKeys.hash, sql.placeholder("hash")))
    .limit(1)
    .prepare("api_key_by_hash"),
);

async function resolveKey(db: Executor, authorization: string, now: Date): Promise<Principal> {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
  const token = match?.[1];
  if (!token || !parseApiKey(token)) throw unauthorized("Malformed API key; expected `Authorization: Bearer <key>`");
  const [row] = await keyByHash(db).execute({ hash: hashApiKey(token) });
  if (!row) throw unauthorized("Unknown API key");
  if (!row.key.enabled) throw unauthorized("API key is disabled");
  if (row.key.expiresAt && row.key.expiresAt <= now) throw unauthorized("API key has expired");
  assertNotBanned(row.user, now);
  return {
    userId: row.user.id,
    email: row.user.email,
    name: row.user.name,
    role: row.user.role,
    source: "api_key",
    apiKeyId: row.key.id,
    apiKeyMode: row.key.mode,
    sessionId: null,
    keyLimit: {
      enabled: row.key.rateLimitEnabled,
      windowMs: row.key.rateLimitTimeWindow,
      max: row.key.rateLimitMax,
    },
  };
}

/** A session cookie's principal (null when unknown or expired; 403 when banned). Pages use it too. */
export async function resolveSession(db: Executor, token: string, now = new Date()): Promise<Principal | null> {
  const [row] = await db
    .select({ user: userColumns, sessionId: sessions.id })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.sessionToken, token), gt(sessions.expires, now)))
    .limit(1);
  if (!row) return null;
  assertNotBanned(row.user, now);
  return {
    userId: row.user.id,
    email: row.user.email,
    name: row.user.name,
    role: row.user.role,
    source: "session",
    apiKeyId: null,
    apiKeyMode: null,
    sessionId: row.sessionId,
    keyLimit: null,
  };
}

export type AuthMode = "none" | "optional" | "key" | "session" | "admin";

/**
 * Applies a route's auth rule. `key` accepts a key or a session; `session` is a dashboard-only
 * action (a key gets 403); `admin` needs a session of an admin.
 */
export function authorize(mode: AuthMode, principal: Principal | null): void {
  if (mode === "none" || mode === "optional") return;
  if (!principal) throw unauthorized("Authentication required: send `Authorization: Bearer <key>` or sign in");
  if (mode === "key") return;
  if (principal.source !== "session") {
    throw new ApiError("forbidden", "This action is available only in the dashboard, not with an API key");
  }
  if (mode === "admin" && principal.role !== "admin") throw new ApiError("forbidden", "Admin role required");
}
