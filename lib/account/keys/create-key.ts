import type { ServiceContext } from "@/lib/auth/context";
import type { z } from "zod";
import { apiKeys } from "@/db/schema";
import type { createKeyBody } from "./key-input";
import { base62, generateApiKey } from "@/lib/auth/api-key";

export const newKeyId = () => `key_${base62(24)}`;

/**
 * Creates a key for the caller and returns its plaintext: the only time it exists outside the
 * caller's hands. Only the SHA-256 is stored (lib/auth/api-key.ts).
 */
export async function createApiKey(ctx: ServiceContext, input: z.output<typeof createKeyBody>, now = new Date()) {
  const generated = generateApiKey(input.mode);
  const [row] = await ctx.db
    .insert(apiKeys)
    .values({
      id: newKeyId(),
      userId: ctx.principal.userId,
      name: input.name,
      hash: generated.hash,
      prefix: generated.prefix,
      start: generated.start,
      mode: generated.mode,
      expiresAt: input.expiresIn ? new Date(now.getTime() + input.expiresIn * 1000) : null,
    })
    .returning({ id: apiKeys.id, name: apiKeys.name, expiresAt: apiKeys.expiresAt, createdAt: apiKeys.createdAt });
  return {
    id: row!.id,
    name: row!.name,
    key: generated.key,
    prefix: generated.prefix,
    start: generated.start,
    expiresAt: row!.expiresAt?.toISOString() ?? null,
    createdAt: row!.createdAt.toISOString(),
  };
}
