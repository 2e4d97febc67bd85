import { z } from "zod";
import { getGenerationOrThrow } from "@/lib/generation";
import { followJob } from "../follow-job";
import { jobResult, MAX_WAIT_SECONDS } from "../job-result";
import { defineTool } from "../tool";

export const getRequest = defineTool({
  name: "get_request",
  title: "Get a request",
  description:
    "Returns a generation's state by the request_id generate gave: queued, in_progress, completed (with its files as links, " +
    "small images and sound inline, and the cost in rubles) or failed (with the error; failed jobs are refunded). With " +
    "`wait_seconds` it waits up to that long for a running job to finish, reporting progress, so one call replaces polling. " +
    "Only the account's own requests are found.",
  input: z.object({
    request_id: z.string().min(1).describe("The request_id generate returned"),
    wait_seconds: z
      .number()
      .int()
      .min(0)
      .max(MAX_WAIT_SECONDS)
      .default(0)
      .describe("Wait up to this long for a running job to finish (0: answer at once)"),
  }),
  annotations: { readOnlyHint: true, openWorldHint: false },
  run: async ({ request_id, wait_seconds }, call) => {
    const row = await getGenerationOrThrow(call.ctx, request_id);
    return jobResult(call, wait_seconds > 0 ? await followJob(call, row, wait_seconds * 1000) : row);
  },
});
