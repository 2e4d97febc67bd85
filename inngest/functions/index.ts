import { pruneJobHistoryFn } from "./prune-job-history";
import { pruneRateLimitWindowsFn } from "./prune-rate-limit-windows";

/** Every function the app serves at /api/inngest (and the embedded executor runs). */
export const functions = [
  pruneJobHistoryFn,
  pruneRateLimitWindowsFn,
];
