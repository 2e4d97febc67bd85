import { serveJobs } from "@/lib/jobs/serve";
import { functions } from "./functions";

/** The one serve() handler of the app's functions, exported by app/api/inngest for an Inngest server. */
export const inngestHandler = serveJobs(functions);
