import { z } from "zod";
import { userRoles } from "@/db/schema";

// What an admin sends to list users, ban one and tune a user's key; lib/http/contracts/admin-users.ts serves these.
export const listUsersQuery = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(50),
  offset: z.coerce.number().int().min(0).default(0),
  q: z.string().trim().max(64).optional().meta({ description: "Case-insensitive substring of e-mail or name" }),
  role: z.enum(userRoles).optional(),
  banned: z.enum(["true", "false"]).optional().meta({ description: "Only users whose ban is (or is not) in force" }),
});

export const banBody = z
  .object({
    reason: z.string().trim().max(500).nullish(),
    expiresAt: z.iso
      .datetime({ offset: true })
      .nullish()
      .refine((v) => v == null || Date.parse(v) > Date.now(), "must be in the future")
      .meta({ description: "When the ban lifts itself; omitted or null means indefinite" }),
  })
  .meta({ id: "BanUser" });

export const adminUpdateKeyBody = z
  .object({
    name: z.string().trim().min(1).max(64).optional(),
    enabled: z.boolean().optional(),
    metadata: z.object({ monthlyLimitRub: z.int().min(0).max(1_000_000_000).nullable() }).optional(),
    rateLimitEnabled: z.boolean().optional(),
    rateLimitTimeWindow: z
      .int()
      .min(1_000)
      .max(30 * 86_400_000)
      .optional(),
    rateLimitMax: z.int().min(0).max(100_000).nullable().optional().meta({ description: "null restores the default" }),
  })
  .refine((b) => Object.values(b).some((v) => v !== undefined), { message: "Nothing to change" })
  .meta({ id: "AdminUpdateApiKey" });
