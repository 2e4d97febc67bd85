import { z } from "zod";
import { apiKeyModes } from "@/db/schema";

// What a caller sends to create or change one of their API keys; lib/http/contracts/keys.ts serves these.

const TEN_YEARS_S = 10 * 365 * 86_400;

// Written in place in the document, not as a component: openapi-typescript makes a component's
// defaulted fields required (right for an answer), which would force clients to send `mode`.
export const createKeyBody = z.object({
  name: z.string().trim().min(1).max(64),
  expiresIn: z
    .int()
    .min(60)
    .max(TEN_YEARS_S)
    .nullish()
    .meta({ description: "Lifetime in seconds; omitted or null means the key never expires" }),
  mode: z
    .enum(apiKeyModes)
    .default("live")
    .meta({ description: "`test` keys are the sandbox: the local simulator, never the real balance" }),
});

const monthlyLimit = z.object({ monthlyLimitRub: z.int().min(0).max(1_000_000_000).nullable() });

export const updateKeyBody = z
  .object({
    name: z.string().trim().min(1).max(64).optional(),
    enabled: z.boolean().optional().meta({ description: "Dashboard only, like the cap: a key cannot re-enable itself" }),
    metadata: monthlyLimit.optional().meta({ description: "Dashboard only: a key cannot raise its own cap" }),
  })
  .refine((b) => b.name !== undefined || b.enabled !== undefined || b.metadata !== undefined, {
    message: "Nothing to change: send name, enabled or metadata.monthlyLimitRub",
  })
  .meta({ id: "UpdateApiKey" });
