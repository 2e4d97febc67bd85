import { z } from "zod";
import { cancelGeneration } from "@/lib/generation";
import { dataResult, defineTool } from "../tool";

export const cancelRequest = defineTool({
  name: "cancel_request",
  title: "Cancel a request",
  description:
    "Cancels a generation that has not started running yet and refunds its reservation in full: the answer is " +
    '{ok: true, status: "cancelled"}. A job already running or finished is left alone and answers {ok: false, status} ' +
    "with its current status (a running job is charged only if it completes; get_request shows it).",
  input: z.object({ request_id: z.string().min(1).describe("The request_id generate returned") }),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
  run: async ({ request_id }, { ctx }) => {
    const outcome = await cancelGeneration(ctx, request_id);
    return dataResult(
      { request_id, ...outcome },
      outcome.ok ? "Cancelled; the reservation was refunded." : `Not cancelled: the job is ${outcome.status}.`,
    );
  },
});
