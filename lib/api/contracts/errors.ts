import { z } from "zod";
import { errorCodes, skillCodes } from "@/lib/http/errors";

export const issueSchema = z
  .object({ path: z.array(z.string()), message: z.string() })
  .meta({ id: "ValidationIssue" });

export const gatewayErrorSchema = z
  .object({
    success: z.literal(false),
    error: z.enum(errorCodes as [string, ...string[]]).meta({ description: "Stable machine-readable code" }),
    message: z.string().meta({ description: "For humans; may change" }),
    issues: z.array(issueSchema).optional(),
    required: z.number().optional().meta({ description: "Rubles needed (insufficient_balance)" }),
    available: z.number().optional().meta({ description: "Rubles available (insufficient_balance)" }),
    recovery: z
      .object({ action: z.string(), url: z.string(), minAmountRub: z.number().optional() })
      .optional(),
    docs: z.string().optional(),
    failure: z
      .enum(["unreachable", "access_denied", "bucket_missing", "disk_full", "server_error", "error"])
      .optional()
      .meta({ description: "What is failing (storage_unavailable)" }),
  })
  .meta({ id: "Error" });

export const skillErrorSchema = z
  .object({
    error: z.string().meta({ description: "Human-readable description" }),
    code: z.enum(skillCodes),
    details: z.record(z.string(), z.unknown()).optional(),
  })
  .meta({ id: "SkillError" });
