import { autoTopupFn } from "./auto-topup";
import { lowBalanceEmailFn } from "./low-balance-email";
import { pruneJobHistoryFn } from "./prune-job-history";
import { pruneRateLimitWindowsFn } from "./prune-rate-limit-windows";
import { reconcilePaymentsFn } from "./reconcile-payments";

/** Every function the app serves at /api/inngest (and the embedded executor runs). */
export const functions = [
  pruneJobHistoryFn,
  pruneRateLimitWindowsFn,
  autoTopupFn,
  lowBalanceEmailFn,
  reconcilePaymentsFn,
];
