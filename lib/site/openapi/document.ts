import { z } from "zod";
import { createDocument, type ZodOpenApiOperationObject, type ZodOpenApiPathsObject, type ZodOpenApiResponseObject } from "zod-openapi";
import { operations } from "@/lib/http/contracts";
import { gatewayErrorSchema, skillErrorSchema } from "@/lib/http/contracts/errors";
import type { Operation, OperationResponse } from "@/lib/http/contracts/operation";
import { type ErrorCode } from "@/lib/core/errors";
import { gatewayErrors } from "@/lib/http/errors";
import { mcpClientConfig, mcpServerUrl } from "@/lib/site/mcp-client";
import { withExplicitTypes } from "./explicit-types";

/** Errors every operation of an auth mode can answer with, besides its own list. */
const impliedErrors: Record<Operation["auth"], ErrorCode[]> = {
  none: ["internal_error"],
  // A key, when one is sent, is counted against its limit as on any other call.
  optional: ["unauthorized", "forbidden", "rate_limited", "internal_error"],
  key: ["unauthorized", "forbidden", "rate_limited", "internal_error"],
  session: ["unauthorized", "forbidden", "internal_error"],
  admin: ["unauthorized", "forbidden", "internal_error"],
};

type Responses = Record<string, ZodOpenApiResponseObject>;

const takesJson = (op: Operation) =>
  Boolean(op.body) &&
  [op.bodyContentType ?? "application/json", ...(op.extraBodies ?? []).map((b) => b.contentType)].includes("application/json");

/**
 * Who may call: `none` → nobody needs to say (`[]`); `optional` → anonymous (`{}`) or a key or a
 * session, so generated clients and /docs do not demand a key; `key` → a key or a session.
 */
function securityOf(auth: Operation["auth"]): Record<string, string[]>[] {
  if (auth === "none") return [];
  if (auth === "optional") return [{}, { bearerAuth: [] }, { sessionCookie: [] }];
  if (auth === "key") return [{ bearerAuth: [] }, { sessionCookie: [] }];
  return [{ sessionCookie: [] }];
}

type ErrorAt = { code: ErrorCode; status: number };

/**
 * Every error an operation may answer, each at its status: those its auth mode implies, a bad
 * path id (every operation with `params`: the wrapper, or the route parsing a catch-all's
 * segments, answers 400 invalid_params), the body's and the query's, and its own list. An implied
 * code the operation declares only at another status (fal's 422 for invalid input) is answered
 * there alone.
 */
function errorsOf(op: Operation): ErrorAt[] {
  const codes = new Set<ErrorCode>(impliedErrors[op.auth]);
  if (op.params) codes.add("invalid_params");
  if (op.body && !op.bodyContentType) codes.add("invalid_body").add("invalid_json").add("payload_too_large");
  // The JSON body reader answers 415 to any other Content-Type (lib/http/request.ts readJson).
  if (takesJson(op)) codes.add("unsupported_media_type");
  if (op.query) codes.add("invalid_query");
  const own = op.errors ?? [];
  const elsewhere = own.filter((e) => typeof e !== "string").map((e) => e.code);
  for (const code of elsewhere) codes.delete(code);
  for (const e of own) if (typeof e === "string") codes.add(e);
  return [
    ...[...codes].map((code) => ({ code, status: gatewayErrors[code] as number })),
    ...own.filter((e): e is ErrorAt => typeof e !== "string"),
  ];
}

/** A response's media types, each with its schema (none: any bytes). */
function contentOf(r: OperationResponse): Record<string, { schema?: z.ZodType }> | undefined {
  if (r.content) return Object.fromEntries(Object.entries(r.content).map(([type, schema]) => [type, schema ? { schema } : {}]));
  if (!r.schema && !r.contentType) return undefined;
  return { [r.contentType ?? "application/json"]: r.schema ? { schema: r.schema } : {} };
}

function toOperation(op: Operation): ZodOpenApiOperationObject {
  const envelope = op.surface === "skill" ? skillErrorSchema : gatewayErrorSchema;
  const byStatus = new Map<number, ErrorCode[]>();
  for (const { code, status } of errorsOf(op)) byStatus.set(status, [...new Set([...(byStatus.get(status) ?? []), code])]);
  const responses: Responses = Object.fromEntries(
    [...byStatus].map(([status, list]) => [
      String(status),
      { description: list.join(", "), content: { "application/json": { schema: envelope } } },
    ]),
  );
  for (const [status, r] of Object.entries(op.responses)) {
    const content = contentOf(r);
    const error = responses[status];
    if (!error) {
      responses[status] = { description: r.description, ...(content ? { content } : {}) };
      continue;
    }
    // A status both the envelope and another body answer (the MCP SDK's JSON-RPC errors): either.
    const json = content?.["application/json"]?.schema;
    responses[status] = {
      description: `${error.description}; ${r.description}`,
      content: { ...content, "application/json": { schema: json ? z.union([envelope, json]) : envelope } },
    };
  }
  return {
    operationId: op.operationId,
    summary: op.summary,
    description: op.description,
    tags: [...op.tags],
    security: securityOf(op.auth),
    ...(op.params || op.query || op.headers
      ? {
          requestParams: {
            ...(op.params ? { path: op.params } : {}),
            ...(op.query ? { query: op.query } : {}),
            ...(op.headers ? { header: op.headers } : {}),
          },
        }
      : {}),
    ...(op.body
      ? {
          requestBody: {
            required: true,
            content: {
              [op.bodyContentType ?? "application/json"]: { schema: op.body },
              ...Object.fromEntries((op.extraBodies ?? []).map((b) => [b.contentType, { schema: b.schema }])),
            },
          },
        }
      : {}),
    responses,
  };
}

/** How an AI agent connects (MCP, llms.txt), at the top of /docs. */
function agentsDescription(serverUrl = "https://gateway.example.com"): string {
  return (
    `\n\n**AI agents:** connect an MCP client to \`${mcpServerUrl(serverUrl)}\` with your API key (tools, billing and limits of the skill surface; see Agents → POST /mcp), ` +
    `e.g. in Claude Code's \`.mcp.json\` or Cursor's \`mcp.json\`:\n\n\`\`\`json\n${mcpClientConfig(serverUrl)}\n\`\`\`\n\n` +
    `Language models can read the catalog at \`/llms.txt\` and each model's page at \`/catalog/{modelId}/llms.txt\`.`
  );
}

/**
 * The reference's sections in the order a newcomer needs them (Scalar and generated clients follow
 * the document's `tags`): running a model and choosing one first, administration last. A tag not
 * named here follows, in the order its first operation is listed.
 */
const TAG_ORDER = [
  ["Generation", "Run a model: synchronously (`/run`) or queued (`/queue`), follow it, cancel it, fetch its result."],
  ["Models", "The public catalog: search, each model's card with its input schema, and a price estimate."],
  ["Files", "Uploads to use as inputs, and the stored results."],
  ["Activity", "Your runs: status, inputs, outputs and costs."],
  ["Money", "Balance, transactions and usage."],
  ["Billing", "Top-ups, payments, saved cards and auto top-up."],
  ["API keys", "Keys for the API, their limits and monthly caps."],
  ["Me", "The signed-in user: profile, sessions and the webhook signing secret."],
  ["Skill", "The skill surface for AI agents, under /api/v1."],
  ["Agents", "MCP, and the catalog as text for language models."],
  ["fal compatibility", "fal's client protocol over the gateway."],
  ["Integrations", "Partner adapters."],
  ["Webhooks", "Notifications the gateway receives from payment and generation providers."],
  ["System", "Health, this document and the changelog."],
  ["Admin", "The catalog's administration."],
  ["Admin: users", "Users, bans, sessions and keys."],
  ["Admin: money", "Statistics, credit grants and clawbacks, transactions and usage."],
] as const;

function tagsOf(list: Operation[]) {
  const used = [...new Set(list.flatMap((op) => op.tags))];
  const known = new Map<string, string>(TAG_ORDER);
  const ordered = [
    ...TAG_ORDER.map(([name]) => name as string).filter((name) => used.includes(name)),
    ...used.filter((t) => !known.has(t)),
  ];
  return ordered.map((name) => (known.has(name) ? { name, description: known.get(name)! } : { name }));
}

/**
 * Every operation the contracts list, internal ones included (the coverage tests compare it with
 * the handlers on disk). What clients see is `publicOpenApiDocument`.
 */
export function buildOpenApiDocument(serverUrl?: string, list: Operation[] = operations) {
  const paths: ZodOpenApiPathsObject = {};
  for (const op of list) {
    paths[op.path] = { ...paths[op.path], [op.method]: toOperation(op) };
  }
  return createDocument({
    openapi: "3.1.0",
    info: {
      title: "Generation Gateway API",
      version: "1.0.0",
      description:
        "Generate images, video and audio on catalogued models, paid in credits (1 credit = 0.0001 ₽). " +
        "The gateway surface has unprefixed paths; the skill surface for AI agents lives under /api/v1. " +
        "`{modelId}` may contain slashes and is placed in the path as it is; a client that percent-encodes them (`fal-ai%2Fflux%2Fdev`, as generated clients do) is answered the same." +
        agentsDescription(serverUrl),
    },
    servers: serverUrl ? [{ url: serverUrl }] : undefined,
    tags: tagsOf(list),
    components: {
      securitySchemes: {
        bearerAuth: { type: "http", scheme: "bearer", description: "`<prefix>_live_…` or `<prefix>_test_…` (sandbox)" },
        sessionCookie: { type: "apiKey", in: "cookie", name: "authjs.session-token", description: "Dashboard session" },
      },
    },
    paths,
  });
}

/**
 * zod writes every `z.int()` with the safe-integer range as its bounds (±9007199254740991): no
 * limit of ours, and what Scalar and generated clients took for an example value
 * (`"rate_limit": -9007199254740991`). Dropped; real bounds (`.min(1)`) stay.
 */
export function withoutSafeIntegerBounds<T>(doc: T): T {
  const visit = (v: unknown) => {
    if (Array.isArray(v)) return v.forEach(visit);
    if (typeof v !== "object" || v === null) return;
    const o = v as Record<string, unknown>;
    if (o.minimum === Number.MIN_SAFE_INTEGER) delete o.minimum;
    if (o.maximum === Number.MAX_SAFE_INTEGER) delete o.maximum;
    Object.values(o).forEach(visit);
  };
  visit(doc);
  return doc;
}

/**
 * /openapi.json and /docs: the operations API clients call (internal ones left out), with every
 * schema carrying an explicit `type` (see `withExplicitTypes`) and no made-up integer bounds.
 */
export function publicOpenApiDocument(serverUrl?: string) {
  return withoutSafeIntegerBounds(
    withExplicitTypes(
      buildOpenApiDocument(
        serverUrl,
        operations.filter((op) => !op.internal),
      ),
    ),
  );
}
