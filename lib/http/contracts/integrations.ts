import { z } from "zod";
import { coverAnswer, coverEditBody, coverGenerateBody } from "@/lib/integrations/covers/schemas";
import { circuitOpen, idempotencyHeaders } from "./generation";
import { defineOperations } from "./operation";

export const integrationParams = z.object({
  slug: z.string().meta({ description: "The partner adapter's slug (INTEGRATION_SLUG, `covers` by default)" }),
});

const costNote =
  "Billed to the caller like any generation on INTEGRATION_MODEL_ID (402 insufficient_balance, 429 key_limit_exceeded), " +
  "refunded in full when the generation fails. With `Idempotency-Key`, a repeat of the same request within 24 h reuses " +
  "the first request's generation (no second charge or run).";

export const integrationOperations = defineOperations([
  {
    method: "post",
    path: "/integrations/{slug}",
    operationId: "generateCover",
    summary: "Generate an album cover from a release",
    description:
      "Builds a prompt from the genre's visual conventions and the opening of `text` (deterministic; returned as " +
      "`cover_image_prompt`), runs it on the configured text-to-image model at square_hd (1024×1024) and stores the " +
      `result. ${costNote} Unknown slug → 404 not_found.`,
    tags: ["Integrations"],
    surface: "gateway",
    auth: "key",
    params: integrationParams,
    headers: idempotencyHeaders,
    body: coverGenerateBody,
    responses: { 200: { description: "The cover", schema: coverAnswer } },
    errors: [
      "not_found",
      "invalid_params",
      "idempotency_key_reused",
      "insufficient_balance",
      "key_limit_exceeded",
      "generation_failed",
      "provider_error",
      circuitOpen,
      "timeout",
    ],
  },
  {
    method: "post",
    path: "/integrations/{slug}-edit",
    operationId: "editCover",
    summary: "Write the release name and/or artist on a cover",
    description:
      "Takes `reference_image` (fetched under the outbound URL rules: public addresses only, at most MAX_UPLOAD_BYTES) " +
      "or, when it is omitted, a newly generated cover, centre-crops it to a square and draws the text with the " +
      "bundled Inter font (Latin, Cyrillic, Greek): sized to fit, placed in the calmer of the top and bottom bands, " +
      "light or dark over a scrim strong enough for WCAG AA contrast. The result is stored as a JPEG asset. Drawing " +
      `on a reference_image is free; generating the cover first is billed: ${costNote}`,
    tags: ["Integrations"],
    surface: "gateway",
    auth: "key",
    params: integrationParams,
    headers: idempotencyHeaders,
    body: coverEditBody,
    responses: { 200: { description: "The cover with its text", schema: coverAnswer } },
    errors: [
      "not_found",
      "invalid_params",
      "idempotency_key_reused",
      "insufficient_balance",
      "key_limit_exceeded",
      "generation_failed",
      "provider_error",
      circuitOpen,
      "timeout",
      "asset_storage_disabled",
      "storage_unavailable",
    ],
  },
]);
