import { getDb } from "@/db/client";
import { sendLowBalanceMail } from "@/lib/billing/payments/low-balance-mail";
import { inngest } from "../../lib/jobs/client";
import { lowBalanceCrossed } from "../../lib/jobs/events";

/** The low-balance e-mail, sent once per crossing (event id) and retried if the mail server fails. */
export const lowBalanceEmailFn = inngest.createFunction(
  { id: "low-balance-email", name: "Low-balance e-mail", retries: 5, triggers: [lowBalanceCrossed] },
  async ({ event, step }) => step.run("send", async () => sendLowBalanceMail(await getDb(), event.data)),
);
