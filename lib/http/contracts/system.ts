import { z } from "zod";
import { defineOperations } from "./operation";

const healthPart = z
  .object({
    status: z.enum(["ok", "down", "disabled"]).meta({ description: "`disabled`: switched off on purpose, not a fault" }),
    reason: z
      .string()
      .optional()
      .meta({ description: "Why a part is down, as a fixed code (`unreachable`, `not_configured`, `not_running`, …)" }),
  })
  .catchall(z.unknown());

export const healthResponse = z
  .object({
    status: z.enum(["ok", "degraded"]).meta({ description: "`degraded` when any part is down" }),
    db: z.enum(["ok", "down"]),
    uptime: z.number().meta({ description: "Seconds since the process started" }),
    timestamp: z.iso.datetime(),
    parts: z
      .object({
        database: healthPart,
        storage: healthPart.meta({ description: "`driver`: local, s3 or disabled" }),
        jobs: healthPart.meta({
          description: "`mode`: embedded (the in-process executor is running) or inngest / inngest-dev (a server is configured)",
        }),
        providers: healthPart.meta({
          description:
            "`breakers`: each generation provider's circuit breaker `{provider, state, retryAfterMs}`; down while one is not closed",
        }),
        payments: healthPart.meta({
          description: "`provider`: local or yookassa; down when not configured or its last call (within 5 minutes) failed",
        }),
      })
      .meta({ description: "Each part's state" }),
  })
  .meta({ id: "Health" });

export const changelogEntry = z
  .object({ version: z.string(), date: z.string(), notes: z.array(z.string()) })
  .meta({ id: "ChangelogEntry" });

export const changelogResponse = z.object({ entries: z.array(changelogEntry) }).meta({ id: "Changelog" });

export const systemOperations = defineOperations([
  {
    method: "get",
    path: "/health",
    operationId: "getHealth",
    summary: "Service health: each part's state, with a real database round trip",
    description:
      "200 while the database answers, `status` `ok` or `degraded` (some part is down but the service still answers what does not need it); 503 when the database is down.",
    tags: ["System"],
    surface: "gateway",
    auth: "none",
    responses: {
      200: { description: "Serving: every part up, or degraded", schema: healthResponse },
      503: { description: "The database is unreachable", schema: healthResponse },
    },
  },
  {
    method: "get",
    path: "/changelog.json",
    operationId: "getChangelog",
    summary: "Published changes, newest first",
    tags: ["System"],
    surface: "gateway",
    auth: "none",
    responses: { 200: { description: "Changelog", schema: changelogResponse } },
  },
  {
    method: "get",
    path: "/openapi.json",
    operationId: "getOpenApi",
    summary: "This OpenAPI 3.1 document",
    tags: ["System"],
    surface: "gateway",
    auth: "none",
    responses: { 200: { description: "OpenAPI document", contentType: "application/json" } },
  },
  {
    method: "get",
    path: "/metrics",
    operationId: "getMetrics",
    summary: "Prometheus metrics",
    description: "`Authorization: Bearer <METRICS_TOKEN>`; 404 while METRICS_TOKEN is unset.",
    tags: ["Internal"],
    surface: "gateway",
    auth: "none",
    internal: true,
    responses: { 200: { description: "The text exposition format", contentType: "text/plain" } },
    errors: ["unauthorized", "not_found"],
  },
  {
    method: "get",
    path: "/docs",
    operationId: "getDocs",
    summary: "The API reference (Scalar over /openapi.json)",
    tags: ["Internal"],
    surface: "gateway",
    auth: "none",
    internal: true,
    responses: { 200: { description: "The page", contentType: "text/html" } },
  },
  {
    method: "get",
    path: "/docs/scalar.js",
    operationId: "getDocsScript",
    summary: "Scalar's browser bundle, so /docs works offline",
    tags: ["Internal"],
    surface: "gateway",
    auth: "none",
    internal: true,
    responses: { 200: { description: "The script", contentType: "text/javascript" } },
  },
]);
