import type { z } from "zod";
import type { AuthMode } from "@/lib/auth/resolve";
import type { ErrorCode } from "@/lib/errors";

/**
 * One documented operation. Route handlers validate with the same zod schemas referenced here, and
 * lib/openapi/document.ts renders every operation into /openapi.json, so the two cannot drift.
 */
export type Operation = {
  method: "get" | "post" | "put" | "patch" | "delete";
  /** OpenAPI path template, e.g. `/models/{modelId}`. */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  surface: "gateway" | "skill";
  auth: AuthMode;
  body?: z.ZodType;
  /** Set for non-JSON bodies, e.g. multipart/form-data uploads. */
  bodyContentType?: string;
  /** Further accepted body types, e.g. an upload taking multipart or JSON. */
  extraBodies?: { contentType: string; schema: z.ZodType }[];
  query?: z.ZodObject;
  params?: z.ZodObject;
  /** Request headers the operation reads, e.g. `Idempotency-Key`. */
  headers?: z.ZodObject;
  responses: Record<number, { description: string; schema?: z.ZodType; contentType?: string }>;
  /** Error codes this operation may answer with (beyond those its auth mode implies). */
  errors?: ErrorCode[];
  /**
   * Served, but not for API clients (the Inngest SDK endpoint, the simulator's media links): left
   * out of the public reference (/openapi.json, /docs); `buildOpenApiDocument` still lists it.
   */
  internal?: true;
};

export const defineOperations = (ops: Operation[]) => ops;
