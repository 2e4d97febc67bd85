import { z } from "zod";
import { failureError, startGeneration } from "@/lib/generation";
import { DomainError, isDomainError } from "@/lib/core/errors";
import { followJob } from "../follow-job";
import { jobResult, MAX_WAIT_SECONDS } from "../job-result";
import { enforceTierLimit } from "../tier-limit";
import { defineTool } from "../tool";

export const generate = defineTool({
  name: "generate",
  title: "Generate",
  description:
    "Runs a model on `input` (its parameters, see get_model_schema) and waits for the result up to `wait_seconds`, " +
    "reporting progress while it runs. A finished result lists its files as links (images and sound also come inline when " +
    "small) with the cost in rubles. A job still running when the wait ends keeps going: the answer carries its request_id " +
    "for get_request. The cost is reserved from the balance when the job starts and refunded if it fails or is cancelled; " +
    "a short balance is an INSUFFICIENT_BALANCE error saying how much to top up, and too many calls per minute a " +
    "RATE_LIMITED error saying how long to wait. Input files (image_url, audio_url, …) must be URLs: upload_file turns " +
    "local bytes into one.",
  input: z.object({
    model: z.string().min(1).describe("Model id from list_models, e.g. fal-ai/flux/dev"),
    input: z.record(z.string(), z.unknown()).describe('The model\'s parameters, e.g. {"prompt": "a lighthouse at dawn"}'),
    wait_seconds: z
      .number()
      .int()
      .min(0)
      .max(MAX_WAIT_SECONDS)
      .default(45)
      .describe("How long to wait for the result before returning the request_id instead (0: return at once)"),
  }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  run: async ({ model, input, wait_seconds }, call) => {
    await enforceTierLimit(call);
    // Queued, not inline: a job outlives the call (a client that gives up can still fetch it).
    const started = await startGeneration(call.ctx, {
      modelId: model,
      input,
      surface: "skill",
      mode: "queue",
      operation: "generate",
    }).catch(unknownModelIsInvalid);
    const row = await followJob(call, started, wait_seconds * 1000);
    if (row.status === "failed") throw failureError(row);
    return jobResult(call, row);
  },
});

/** As on POST /api/v1/generate: an unknown `model` is a bad parameter (INVALID_PARAMS), not a missing resource. */
function unknownModelIsInvalid(err: unknown): never {
  if (!isDomainError(err) || err.code !== "unknown_model") throw err;
  throw new DomainError("invalid_body", `model: ${err.message}`, { issues: [{ path: ["model"], message: err.message }] });
}
