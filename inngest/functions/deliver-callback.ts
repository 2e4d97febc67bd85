import { getDb } from "@/db/client";
import { attemptCallbackDelivery, markCallbackFailed } from "@/lib/generation";
import { inngest } from "../../lib/jobs/client";
import { generationCallbackRequested } from "../../lib/jobs/events";

/**
 * Delivers one completion callback, signed per Standard Webhooks. A receiver that fails (non-2xx,
 * a 3xx, a timeout, a refused address) makes the step throw, so it is tried again with the
 * executor's backoff; after the last retry the delivery is marked failed.
 */
export const deliverCallbackFn = inngest.createFunction(
  {
    id: "deliver-callback",
    name: "Deliver a completion callback",
    retries: 8,
    triggers: [generationCallbackRequested],
    onFailure: async ({ event }) => {
      const id = (event.data.event.data as { deliveryId?: string }).deliveryId;
      if (id) await markCallbackFailed(await getDb(), id);
    },
  },
  async ({ event, step }) =>
    step.run("deliver", async () => {
      const attempt = await attemptCallbackDelivery(await getDb(), event.data.deliveryId);
      if (!attempt.delivered) throw new Error(`callback not delivered: ${attempt.error}`);
      return attempt;
    }),
);
