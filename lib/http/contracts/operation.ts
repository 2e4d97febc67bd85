import type { z } from "zod";
import type { AuthMode } from "@/lib/auth/resolve";
import type { ErrorCode } from "@/lib/core/errors";

/**
 * One operation of the API: the route that serves it passes this object to its wrapper
 * (`withGateway(keyOperations.createApiKey, handler)`), which takes auth and the body, query and
 * params schemas from it, and lib/site/openapi/document.ts renders it into /openapi.json: one object, so
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
  /**
   * What it answers besides the errors (`errors`, and those the wrapper implies). A status given
   * here that is also an error's (e.g. /mcp's 400: the SDK's JSON-RPC error beside the envelope)
   * is documented as either body.
   */
  responses: Record<number, OperationResponse>;
  /**
   * Error codes this operation may answer with (beyond those its auth mode, params, query and body
   * imply), each at its status in lib/http/errors.ts; `{ code, status }` for one the operation
   * answers at another status (the DomainError names it: the circuit breaker's 503 provider_error,
   * fal's 422 for invalid input).
   */
  errors?: readonly (ErrorCode | { code: ErrorCode; status: number })[];
  /**
   * Served, but not for API clients (the Inngest SDK endpoint, the simulator's media links): left
   * out of the public reference (/openapi.json, /docs); `buildOpenApiDocument` still lists it.
   */
  internal?: true;
};

/**
 * One documented answer. Its body is `schema` as `contentType` (application/json by default; no
 * schema: any bytes), or `content` for a status answered in several media types (each with its
 * schema, null for any bytes), e.g. JSON or server-sent events, or a stored file's own type.
 */
export type OperationResponse = {
  description: string;
  schema?: z.ZodType;
  contentType?: string;
  content?: Readonly<Record<string, z.ZodType | null>>;
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
