import { randomUUID } from "node:crypto";
import { getDb } from "@/db/client";
import { apiKeys, sessions, users, type ApiKeyMode, type UserRole } from "@/db/schema";
import { generateApiKey } from "@/lib/auth/api-key";
import type { Principal } from "@/lib/auth/principal";
import type { ServiceContext } from "@/lib/auth/context";

let seq = 0;
const unique = () => `${Date.now().toString(36)}${(seq++).toString(36)}${Math.random().toString(36).slice(2, 6)}`;

export type TestUser = typeof users.$inferSelect;

export async function createUser(overrides: Partial<typeof users.$inferInsert> & { role?: UserRole } = {}): Promise<TestUser> {
  const db = await getDb();
  const [user] = await db
    .insert(users)
    .values({ email: `user-${unique()}@example.test`, name: "Test User", ...overrides })
    .returning();
  return user!;
}

export async function createApiKey(
  user: { id: string },
  options: { mode?: ApiKeyMode; enabled?: boolean; expiresAt?: Date | null; name?: string } = {},
) {
  const db = await getDb();
  const generated = generateApiKey(options.mode ?? "live");
  const [row] = await db
    .insert(apiKeys)
    .values({
      id: `key_${unique()}`,
      userId: user.id,
      name: options.name ?? "test key",
      hash: generated.hash,
      prefix: generated.prefix,
      start: generated.start,
      mode: generated.mode,
      enabled: options.enabled ?? true,
      expiresAt: options.expiresAt ?? null,
    })
    .returning();
  return { ...row!, key: generated.key };
}

export async function createSession(user: { id: string }, options: { expires?: Date } = {}) {
  const db = await getDb();
  const token = crypto.randomUUID();
  const [row] = await db
    .insert(sessions)
    .values({ sessionToken: token, userId: user.id, expires: options.expires ?? new Date(Date.now() + 86_400_000) })
    .returning();
  return { ...row!, token };
}

/** A user with a live key and a session: the usual starting point of a test. */
export async function createActor(overrides: Parameters<typeof createUser>[0] = {}) {
  const user = await createUser(overrides);
  const apiKey = await createApiKey(user);
  const session = await createSession(user);
  return { user, key: apiKey.key, apiKey, session: session.token, sessionRow: session };
}

/** What a signed-in user's page or server action runs with (lib/auth/context.ts), for calling verbs directly. */
export async function contextOf(user: { id: string; email?: string | null }): Promise<ServiceContext> {
  const principal: Principal = {
    userId: user.id,
    email: user.email ?? null,
    name: null,
    role: "user",
    source: "session",
    apiKeyId: null,
    apiKeyMode: null,
    sessionId: null,
    keyLimit: null,
  };
  return { requestId: randomUUID(), db: await getDb(), principal };
}
