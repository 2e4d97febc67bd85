import { pruneJobHistoryFn } from "./prune-job-history";

/** Every function the app serves at /api/inngest (and the embedded executor runs). */
export const functions = [pruneJobHistoryFn];
