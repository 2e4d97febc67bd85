import type { ApiKeyMode, UserRole } from "@/db/schema";

/** Who is calling: resolved once per request by lib/auth/resolve.ts. */
export type Principal = {
  userId: string;
  email: string | null;
  name: string | null;
  role: UserRole;
  source: "api_key" | "session";
  apiKeyId: string | null;
  /** `test` keys are the sandbox (simulator provider, no real balance). */
  apiKeyMode: ApiKeyMode | null;
  sessionId: string | null;
  /** Per-key request limit tuning (admin key view); null for sessions. */
  keyLimit: { enabled: boolean; windowMs: number; max: number | null } | null;
};

export const isSandbox = (p: Principal) => p.apiKeyMode === "test";
