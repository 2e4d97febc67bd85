import type { z } from "zod";
import type { AuthMode } from "@/lib/auth/resolve";
import type { ErrorCode } from "@/lib/errors";

/**
 * One operation of the API: the route that serves it passes this object to its wrapper
 * (`withGateway(keyOperations.createApiKey, handler)`), which takes auth and the body, query and
 * params schemas from it, and lib/openapi/document.ts renders it into /openapi.json: one object, so
 * the two cannot drift.
 */
export type Operation = {
  method: "get" | "post" | "put" | "patch" | "delete";
  /** OpenAPI path template, e.g. `/models/{modelId}`. */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tags: readonly string[];
  surface: "gateway" | "skill";
  auth: AuthMode;
  body?: z.ZodType;
  /** Set for non-JSON bodies, e.g. multipart/form-data uploads (the handler reads those itself). */
  bodyContentType?: string;
  /** Further accepted body types, e.g. an upload taking multipart or JSON. */
  extraBodies?: readonly { contentType: string; schema: z.ZodType }[];
  query?: z.ZodObject;
  params?: z.ZodObject;
  /** Request headers the operation reads, e.g. `Idempotency-Key` (validated where they are read). */
  headers?: z.ZodObject;
  responses: Record<number, { description: string; schema?: z.ZodType; contentType?: string }>;
  /** Error codes this operation may answer with (beyond those its auth mode implies). */
  errors?: readonly ErrorCode[];
  /**
   * Served, but not for API clients (the Inngest SDK endpoint, the simulator's media links): left
   * out of the public reference (/openapi.json, /docs); `buildOpenApiDocument` still lists it.
   */
  internal?: true;
};

/**
 * A resource's operations, addressable by operationId (`keyOperations.createApiKey`). Each keeps
 * its own literal type, so a handler's `ctx`, `body`, `query` and `params` are typed from it.
 */
export function defineOperations<const T extends readonly Operation[]>(ops: T): { [O in T[number] as O["operationId"]]: O } {
  const byId: Record<string, Operation> = {};
  for (const op of ops) {
    if (byId[op.operationId]) throw new Error(`operationId ${op.operationId} is defined twice`);
    byId[op.operationId] = op;
  }
  return byId as { [O in T[number] as O["operationId"]]: O };
}
