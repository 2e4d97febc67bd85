import { withGateway } from "@/lib/http/handler";
import { json } from "@/lib/http/json";
import { listPaymentMethods } from "@/lib/payments/methods/list-methods";

// GET /me/payment-methods – your saved cards (dashboard session only)
export const GET = withGateway({ auth: "session" }, async ({ ctx }) => json(await listPaymentMethods(ctx.db, ctx.principal.userId)));
