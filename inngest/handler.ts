import { serve } from "inngest/next";
import { inngest } from "../lib/jobs/client";
import { functions } from "./functions";
import { jobsMode } from "@/lib/jobs/mode";

/**
 * The one serve() handler: exported by app/api/inngest for an Inngest server, and driven
 * in-process by the embedded executor. In embedded mode an unsigned PUT must not be able to make
 * the app reach out to Inngest Cloud, so every request there needs a signature.
 */
export const inngestHandler = serve({
  client: inngest,
  functions,
  ...(jobsMode().kind === "embedded" ? { enableUnauthedSync: false } : {}),
});
