import { billingOperations } from "@/lib/http/contracts/billing";
import { env } from "@/lib/core/env";
import { withGateway } from "@/lib/http/handler";
import { otherMethodsOf } from "@/lib/http/unknown-route";
import { notFound } from "@/lib/core/errors";
import { confirmLocalPayment } from "@/simulators/local-payments/confirm";

// POST /pay/local/{id}/pay|decline – the local payment provider's buttons (the payment's owner, signed in)
export const POST = withGateway(billingOperations.decideLocalPayment, async ({ ctx, params }) => {
  // The page stands in for the provider's card form: only its owner's browser session pays there.
  const principal = ctx.principal;
  if (principal?.source !== "session") throw notFound("Payment");
  const decided = await confirmLocalPayment({ ...ctx, principal }, params.id, params.outcome);
  if (!decided) throw notFound("Payment");
  return Response.redirect(decided.returnUrl ?? new URL(`/pay/local/${encodeURIComponent(params.id)}`, env().APP_URL).toString(), 303);
});

// Any other method – 405 method_not_allowed with Allow; OPTIONS – 204 with Allow
export const { GET, PUT, PATCH, DELETE, HEAD, OPTIONS } = otherMethodsOf({ POST });
