import { z } from "zod";
import { defineOperations } from "./operation";

const sdkMessage = z.object({ message: z.string() }).meta({ id: "InngestSdkMessage" });
const sdkError = z.object({ name: z.string().optional(), message: z.string().optional() }).loose().meta({ id: "InngestSdkError" });
const signature = z.object({
  fnId: z.string().optional().meta({ description: "Composite function id, e.g. generation-gateway-prune-job-history" }),
  stepId: z.string().optional().meta({ description: "`step`, or the hashed id of a planned step" }),
});
const description =
  "The Inngest SDK endpoint (https://github.com/inngest/inngest/blob/main/docs/SDK_SPEC.md). Only an Inngest " +
  "server, or the embedded executor in-process, calls it: every request carries `X-Inngest-Signature` " +
  "(HMAC-SHA256 with the signing key), and an unsigned or wrongly signed one gets 401. Bodies follow the SDK " +
  "protocol, not this API's envelopes.";

export const inngestOperations = defineOperations([
  {
    method: "post",
    path: "/api/inngest",
    operationId: "inngestCall",
    summary: "Run a function up to its next step (Inngest SDK protocol)",
    description,
    tags: ["Internal"],
    surface: "gateway",
    auth: "none",
    internal: true,
    query: signature,
    responses: {
      200: { description: "The run finished; the body is its output", contentType: "application/json" },
      206: {
        description: "Steps to act on (StepRun, Sleep, WaitForEvent, StepPlanned, StepError, StepFailed)",
        contentType: "application/json",
      },
      400: { description: "A final failure (`X-Inngest-No-Retry: true`)", schema: sdkError },
      401: { description: "Missing or invalid X-Inngest-Signature", schema: sdkMessage },
      500: { description: "A retriable failure (`X-Inngest-No-Retry: false`)", schema: sdkError },
    },
  },
  {
    method: "put",
    path: "/api/inngest",
    operationId: "inngestSync",
    summary: "Sync the app's functions with an Inngest server (Inngest SDK protocol)",
    description,
    tags: ["Internal"],
    surface: "gateway",
    auth: "none",
    internal: true,
    responses: {
      200: { description: "Synced; an in-band sync answers with the function configurations", contentType: "application/json" },
      401: { description: "Missing or invalid X-Inngest-Signature", schema: sdkMessage },
      500: { description: "The sync failed", schema: sdkMessage },
    },
  },
  {
    method: "get",
    path: "/api/inngest",
    operationId: "inngestIntrospect",
    summary: "SDK introspection (Inngest SDK protocol)",
    description,
    tags: ["Internal"],
    surface: "gateway",
    auth: "none",
    internal: true,
    responses: {
      200: { description: "Function count, mode and key presence", contentType: "application/json" },
      401: { description: "Missing or invalid X-Inngest-Signature (cloud mode)", schema: sdkMessage },
    },
  },
]);
