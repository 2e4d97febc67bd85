import { autoTopupFn } from "./auto-topup";
import { deliverCallbackFn } from "./deliver-callback";
import { lowBalanceEmailFn } from "./low-balance-email";
import { pruneIdempotencyKeysFn } from "./prune-idempotency-keys";
import { pruneJobHistoryFn } from "./prune-job-history";
import { pruneRateLimitWindowsFn } from "./prune-rate-limit-windows";
import { reconcilePaymentsFn } from "./reconcile-payments";
import { redriveGenerationsFn } from "./redrive-generations";
import { runGenerationFn } from "./run-generation";

/** Every function the app serves at /api/inngest (and the embedded executor runs). */
export const functions = [
  pruneJobHistoryFn,
  pruneRateLimitWindowsFn,
  pruneIdempotencyKeysFn,
  runGenerationFn,
  deliverCallbackFn,
  redriveGenerationsFn,
  autoTopupFn,
  lowBalanceEmailFn,
  reconcilePaymentsFn,
];
