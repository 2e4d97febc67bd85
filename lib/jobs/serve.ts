import type { InngestFunction } from "inngest";
import { serve } from "inngest/next";
import { inngest } from "./client";
import { jobsMode } from "./mode";

/**
 * The serve() handler over a set of functions: what app/api/inngest exports for an Inngest server
 * and what the embedded executor drives in-process. In embedded mode an unsigned PUT must not be
 * able to make the app reach out to Inngest Cloud, so every request there needs a signature.
 */
export const serveJobs = (functions: InngestFunction.Any[]) =>
  serve({ client: inngest, functions, ...(jobsMode().kind === "embedded" ? { enableUnauthedSync: false } : {}) });

export type JobsHandler = ReturnType<typeof serveJobs>;
