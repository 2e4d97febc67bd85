import { createDocument, type ZodOpenApiOperationObject, type ZodOpenApiPathsObject, type ZodOpenApiResponseObject } from "zod-openapi";
import { operations } from "@/lib/api/contracts";
import { gatewayErrorSchema, skillErrorSchema } from "@/lib/api/contracts/errors";
import type { Operation } from "@/lib/api/contracts/operation";
import { type ErrorCode } from "@/lib/errors";
import { gatewayErrors } from "@/lib/http/errors";
import { mcpClientConfig, mcpServerUrl } from "@/lib/mcp/client-config";
import { withExplicitTypes } from "./explicit-types";

/** Errors every operation of an auth mode can answer with, besides its own list. */
const impliedErrors: Record<Operation["auth"], ErrorCode[]> = {
  none: ["internal_error"],
  optional: ["unauthorized", "forbidden", "internal_error"],
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

function errorResponses(op: Operation): Responses {
  const codes = new Set<ErrorCode>([...impliedErrors[op.auth], ...(op.errors ?? [])]);
  if (op.body && !op.bodyContentType) codes.add("invalid_body").add("invalid_json").add("payload_too_large");
  // The JSON body reader answers 415 to any other Content-Type (lib/http/request.ts readJson).
  if (takesJson(op)) codes.add("unsupported_media_type");
  if (op.query) codes.add("invalid_query");
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) {
    const status = gatewayErrors[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const schema = op.surface === "skill" ? skillErrorSchema : gatewayErrorSchema;
  return Object.fromEntries(
    [...byStatus].map(([status, list]) => [String(status), { description: list.join(", "), content: { "application/json": { schema } } }]),
  );
}

function toOperation(op: Operation): ZodOpenApiOperationObject {
  const responses: Responses = errorResponses(op);
  for (const [status, r] of Object.entries(op.responses)) {
    responses[status] = {
      description: r.description,
      ...(r.schema || r.contentType ? { content: { [r.contentType ?? "application/json"]: r.schema ? { schema: r.schema } : {} } } : {}),
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
        "`{modelId}` may contain slashes and is placed in the path as it is." +
        agentsDescription(serverUrl),
    },
    servers: serverUrl ? [{ url: serverUrl }] : undefined,
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
 * /openapi.json and /docs: the operations API clients call (internal ones left out), with every
 * schema carrying an explicit `type` (see `withExplicitTypes`).
 */
export function publicOpenApiDocument(serverUrl?: string) {
  return withExplicitTypes(
    buildOpenApiDocument(
      serverUrl,
      operations.filter((op) => !op.internal),
    ),
  );
}
