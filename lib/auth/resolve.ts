import { and, eq, gt, sql } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { preparedStatement } from "@/db/prepared";
import { sessions, users, type ApiKeyMode, type UserRole } from "@/db/schema";
import { env } from "@/lib/core/env";
import { DomainError } from "@/lib/core/errors";
import { hashApiKey, parseApiKey } from "./api-key";
import type { Principal } from "./principal";
import { sessionTokenFrom } from "./session-cookie";

const unauthorized = (message: string) => new DomainError("unauthorized", message);

type UserRow = Pick<typeof users.$inferSelect, "id" | "email" | "name" | "role" | "banned" | "banExpires">;

function assertNotBanned(user: Pick<UserRow, "banned" | "banExpires">, now: Date): void {
  if (user.banned && (!user.banExpires || user.banExpires > now)) {
    throw new DomainError("forbidden", "This account is banned");
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
 * The one auth resolver: `Authorization: Bearer <key>` (or `Key <key>`, the scheme fal's clients
 * send) or the Auth.js session cookie. Returns null
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
  if (!sameOrigin) throw new DomainError("forbidden", "Cross-site request refused: use an API key, or the dashboard");
}

const keyByHash = preparedStatement(
  () =>
    sql`select ${KEY_STANDING_COLUMNS} from api_keys k join users u on u.id = k.user_id where k.hash = ${sql.placeholder("hash")} limit 1`,
);

/**
 * What decides a key principal: the key and its user as the database has them now. The key
 * lookup reads it; so does every statement that counts a key's request (lib/rate-limit), which
 * is how a remembered lookup is confirmed on each request (see `confirmKey`).
 */
export type KeyStanding = {
  keyId: string;
  mode: ApiKeyMode;
  enabled: boolean;
  expiresAt: number | null;
  rateLimitEnabled: boolean;
  rateLimitTimeWindow: number;
  rateLimitMax: number | null;
  userId: string;
  email: string | null;
  name: string | null;
  role: UserRole;
  banned: boolean;
  banExpires: number | null;
};

/** The standing columns over `api_keys k` and `users u`, for a raw statement's `returning`/`select`. */
export const KEY_STANDING_COLUMNS = sql.raw(
  "k.id as key_id, k.mode, k.enabled, k.expires_at, k.rate_limit_enabled, k.rate_limit_time_window, k.rate_limit_max, " +
    "u.id as user_id, u.email, u.name, u.role, u.banned, u.ban_expires",
);

const millis = (v: unknown) => (v === null || v === undefined ? null : new Date(v as string | Date).getTime());

/** A row of KEY_STANDING_COLUMNS (driver values, or the same row through `row_to_json`). */
export function keyStandingOf(raw: Record<string, unknown>): KeyStanding {
  return {
    keyId: raw.key_id as string,
    mode: raw.mode as ApiKeyMode,
    enabled: Boolean(raw.enabled),
    expiresAt: millis(raw.expires_at),
    rateLimitEnabled: Boolean(raw.rate_limit_enabled),
    rateLimitTimeWindow: Number(raw.rate_limit_time_window),
    rateLimitMax: raw.rate_limit_max === null || raw.rate_limit_max === undefined ? null : Number(raw.rate_limit_max),
    userId: raw.user_id as string,
    email: (raw.email as string | null) ?? null,
    name: (raw.name as string | null) ?? null,
    role: raw.role as UserRole,
    banned: Boolean(raw.banned),
    banExpires: millis(raw.ban_expires),
  };
}

const sameStanding = (a: KeyStanding, b: KeyStanding) => (Object.keys(a) as (keyof KeyStanding)[]).every((k) => a[k] === b[k]);

/** The principal a standing allows, or 401 (disabled, expired) / 403 (banned user). */
function keyPrincipal(s: KeyStanding, now: Date): Principal {
  if (!s.enabled) throw unauthorized("API key is disabled");
  if (s.expiresAt !== null && s.expiresAt <= now.getTime()) throw unauthorized("API key has expired");
  assertNotBanned({ banned: s.banned, banExpires: s.banExpires === null ? null : new Date(s.banExpires) }, now);
  return {
    userId: s.userId,
    email: s.email,
    name: s.name,
    role: s.role,
    source: "api_key",
    apiKeyId: s.keyId,
    apiKeyMode: s.mode,
    sessionId: null,
    keyLimit: { enabled: s.rateLimitEnabled, windowMs: s.rateLimitTimeWindow, max: s.rateLimitMax },
  };
}

/**
 * Key lookups remembered by key hash, so a request with a known key skips its own statement: the
 * statement that counts the request returns the key's standing, and `confirmKey` holds the
 * principal to it before the handler runs. A disabled, deleted or expired key, or a banned user,
 * is refused on the very request that finds it, on every instance.
 */
const KEYS_REMEMBERED = 10_000;
const rememberedKeys = new Map<string, KeyStanding>();
/** Principals resolved from a remembered lookup, not yet held to the database's standing. */
const unconfirmed = new WeakMap<Principal, { hash: string; standing: KeyStanding }>();

function remember(hash: string, standing: KeyStanding) {
  rememberedKeys.delete(hash);
  rememberedKeys.set(hash, standing);
  if (rememberedKeys.size > KEYS_REMEMBERED) rememberedKeys.delete(rememberedKeys.keys().next().value!);
}

async function resolveKey(db: Executor, authorization: string, now: Date): Promise<Principal> {
  // `Key <key>` is what fal's own clients send (docs/fal.md): the same key either way.
  const match = /^(?:Bearer|Key)\s+(\S+)\s*$/i.exec(authorization);
  const token = match?.[1];
  if (!token || !parseApiKey(token)) throw unauthorized("Malformed API key; expected `Authorization: Bearer <key>` (or `Key <key>`)");
  const hash = hashApiKey(token);
  const known = rememberedKeys.get(hash);
  if (known) {
    const principal = keyPrincipal(known, now);
    unconfirmed.set(principal, { hash, standing: known });
    return principal;
  }
  return lookUpKey(db, hash, now);
}

async function lookUpKey(db: Executor, hash: string, now: Date): Promise<Principal> {
  const [row] = await keyByHash<Record<string, unknown>>(db, "", { hash });
  if (!row) throw unauthorized("Unknown API key");
  const standing = keyStandingOf(row);
  const principal = keyPrincipal(standing, now);
  remember(hash, standing);
  return principal;
}

/** Whether the principal still has to be held to the database's standing (`confirmKey`). */
export const needsConfirmation = (principal: Principal | null): boolean => principal !== null && unconfirmed.has(principal);

/**
 * Holds a principal from a remembered lookup to the standing the request's counting statement
 * read (null: the key is gone): the same principal when nothing changed, the fresh one when only
 * its details did, 401/403 when it may no longer call. Without a standing at hand (a refused
 * request counts nothing), pass `db` and the key is looked up.
 */
export async function confirmKey(
  principal: Principal,
  standing: KeyStanding | null | undefined,
  db?: Executor,
  now = new Date(),
): Promise<Principal> {
  const pending = unconfirmed.get(principal);
  if (!pending) return principal;
  unconfirmed.delete(principal);
  rememberedKeys.delete(pending.hash);
  if (standing === undefined) return lookUpKey(db!, pending.hash, now);
  if (standing === null) throw unauthorized("Unknown API key");
  const fresh = keyPrincipal(standing, now);
  remember(pending.hash, standing);
  return sameStanding(standing, pending.standing) ? principal : fresh;
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
    throw new DomainError("forbidden", "This action is available only in the dashboard, not with an API key");
  }
  if (mode === "admin" && principal.role !== "admin") throw new DomainError("forbidden", "Admin role required");
}
