import { deliverCallbackFn } from "./deliver-callback";
import { pruneJobHistoryFn } from "./prune-job-history";
import { redriveGenerationsFn } from "./redrive-generations";
import { runGenerationFn } from "./run-generation";

/** Every function the app serves at /api/inngest (and the embedded executor runs). */
export const functions = [
  pruneJobHistoryFn,
  runGenerationFn,
  deliverCallbackFn,
  redriveGenerationsFn,
];
