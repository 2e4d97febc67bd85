import { z } from "zod";
import { defineOperations } from "./operation";

export const healthResponse = z
  .object({
    status: z.enum(["ok", "degraded"]),
    db: z.enum(["ok", "down"]),
    uptime: z.number().meta({ description: "Seconds since the process started" }),
    timestamp: z.iso.datetime(),
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
    summary: "Service health, with a real database round trip",
    tags: ["System"],
    surface: "gateway",
    auth: "none",
    responses: {
      200: { description: "Healthy", schema: healthResponse },
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
]);
