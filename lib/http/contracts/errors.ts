import { z } from "zod";
import { errorCodes } from "@/lib/core/errors";
import { skillCodes } from "@/lib/http/errors";

export const issueSchema = z.object({ path: z.array(z.string()), message: z.string() }).meta({ id: "ValidationIssue" });

export const gatewayErrorSchema = z
  .object({
    success: z.literal(false),
    error: z.enum(errorCodes).meta({ description: "Stable machine-readable code" }),
    message: z.string().meta({ description: "For humans; may change" }),
    issues: z.array(issueSchema).optional(),
    required: z.number().optional().meta({ description: "Rubles needed (insufficient_balance)" }),
    available: z.number().optional().meta({ description: "Rubles available (insufficient_balance)" }),
    recovery: z.object({ action: z.string(), url: z.string(), minAmountRub: z.number().optional() }).optional(),
    docs: z.string().optional(),
    failure: z
      .enum(["unreachable", "access_denied", "bucket_missing", "disk_full", "server_error", "error"])
      .optional()
      .meta({ description: "What is failing (storage_unavailable)" }),
    requestId: z.string().optional().meta({ description: "The generation the error is about (generation_failed, timeout)" }),
    request_id: z.string().optional().meta({ description: "The same id, as fal clients spell it" }),
    status: z
      .string()
      .optional()
      .meta({ description: "That generation's status: `failed` (generation_failed), `in_progress` (timeout: still running, poll it)" }),
    limitBytes: z.number().int().optional().meta({ description: "The size limit that was exceeded, in bytes (asset_too_large)" }),
    errorType: z.string().optional().meta({ description: "The provider's error type, when it gave one (generation_failed)" }),
    error_type: z.string().optional().meta({ description: "The same, fal-style (fal compatibility routes)" }),
    detail: z.unknown().optional().meta({ description: "The provider's error detail, as it gave it (generation_failed)" }),
  })
  .catchall(z.unknown())
  .meta({
    id: "Error",
    description:
      "The gateway's error envelope. The fields beyond `success`, `error` and `message` depend on the code; a code may add others.",
  });

export const skillErrorSchema = z
  .object({
    error: z.string().meta({ description: "Human-readable description" }),
    code: z.enum(skillCodes),
    details: z.record(z.string(), z.unknown()).optional(),
  })
  .meta({ id: "SkillError" });
