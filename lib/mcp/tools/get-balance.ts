import { z } from "zod";
import { skillBalance } from "@/lib/billing/balance/skill-balance";
import { env } from "@/lib/core/env";
import { dataResult, defineTool } from "../tool";

export const getBalance = defineTool({
  name: "get_balance",
  title: "Get the balance",
  description:
    "Returns the account's balance in rubles, its tier (1–4, raised by total spend) and the requests per minute that tier " +
    "allows for generate, with the total spent so far. Check it before costly work or after an INSUFFICIENT_BALANCE error; " +
    "only the user can top up, in the dashboard.",
  input: z.object({}),
  annotations: { readOnlyHint: true, openWorldHint: false },
  run: async (_args, { ctx }) =>
    dataResult({
      ...(await skillBalance(ctx)),
      topup_url: new URL("/dashboard/billing", env().APP_URL).toString(),
    }),
});
