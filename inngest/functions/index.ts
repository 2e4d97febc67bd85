import { deliverCallbackFn } from "./deliver-callback";
import { pruneJobHistoryFn } from "./prune-job-history";
import { pruneRateLimitWindowsFn } from "./prune-rate-limit-windows";
import { redriveGenerationsFn } from "./redrive-generations";
import { runGenerationFn } from "./run-generation";

/** Every function the app serves at /api/inngest (and the embedded executor runs). */
export const functions = [
  pruneJobHistoryFn,
  pruneRateLimitWindowsFn,
  runGenerationFn,
  deliverCallbackFn,
  redriveGenerationsFn,
];
