/**
 * fal's Platform API as the loopback servers answer it (notes/fal.md §6): `GET /v1/models`
 * (filters, cursor pages, `expand=openapi-3.0`) and `GET /v1/models/pricing` (1–50 ids), over a
 * fixed list of models.
 */
export type FalModelFixture = {
  endpointId: string;
  metadata?: Record<string, unknown>;
  openapi?: Record<string, unknown>;
  price?: { unit_price: number; unit: string; currency?: string };
};

export type PlatformAnswer = { status: number; body: unknown };

const NAMESPACES = new Set(["workflows", "comfy"]);

/** `owner/app` (or `ns/owner/app`): the part of an endpoint id that status, result and cancel take. */
export function appIdOf(endpointId: string): string {
  const parts = endpointId.split("/");
  return parts.slice(0, NAMESPACES.has(parts[0]!) ? 3 : 2).join("/");
}

export function modelsAnswer(models: FalModelFixture[], query: URLSearchParams): PlatformAnswer {
  const ids = query.getAll("endpoint_id");
  const q = query.get("q")?.toLowerCase();
  const category = query.get("category");
  const expand = query.getAll("expand").includes("openapi-3.0");
  let list = models.filter((m) => (!ids.length || ids.includes(m.endpointId)) && (!category || m.metadata?.category === category));
  if (q)
    list = list.filter(
      (m) =>
        m.endpointId.includes(q) ||
        String(m.metadata?.display_name ?? "")
          .toLowerCase()
          .includes(q),
    );
  if (query.get("status")) list = list.filter((m) => (m.metadata?.status ?? "active") === query.get("status"));
  const limit = Math.min(100, Math.max(1, Number(query.get("limit") ?? 50) || 50));
  const start = Number(Buffer.from(query.get("cursor") ?? "MA==", "base64").toString() || 0) || 0;
  const page = list.slice(start, start + limit);
  const more = start + limit < list.length;
  return {
    status: 200,
    body: {
      models: page.map((m) => ({
        endpoint_id: m.endpointId,
        ...(m.metadata ? { metadata: m.metadata } : {}),
        ...(expand ? { openapi: m.openapi ?? { error: { code: "expansion_failed", message: "no schema" } } } : {}),
      })),
      next_cursor: more ? Buffer.from(String(start + limit)).toString("base64") : null,
      has_more: more,
    },
  };
}

export function pricingAnswer(models: FalModelFixture[], query: URLSearchParams): PlatformAnswer {
  const ids = query.getAll("endpoint_id").flatMap((v) => v.split(","));
  if (!ids.length || ids.length > 50) return { status: 400, body: { error: { type: "validation_error", message: "1-50 endpoint ids" } } };
  const prices = models
    .filter((m) => ids.includes(m.endpointId) && m.price)
    .map((m) => ({
      endpoint_id: m.endpointId,
      unit_price: m.price!.unit_price,
      unit: m.price!.unit,
      currency: m.price!.currency ?? "USD",
    }));
  return { status: 200, body: { prices, next_cursor: null, has_more: false } };
}

/** A minimal fal-style OpenAPI document for a model (what `expand=openapi-3.0` returns). */
export function falOpenApi(
  endpointId: string,
  name: string,
  input: Record<string, unknown>,
  output: Record<string, unknown>,
  extra: Record<string, unknown> = {},
) {
  const app = appIdOf(endpointId);
  return {
    openapi: "3.0.4",
    info: { title: `Queue OpenAPI for ${endpointId}`, version: "1.0.0", "x-fal-metadata": { endpointId } },
    servers: [{ url: "https://queue.fal.run" }],
    paths: {
      [`/${endpointId}`]: {
        post: {
          requestBody: { required: true, content: { "application/json": { schema: { $ref: `#/components/schemas/${name}Input` } } } },
          responses: { "200": { content: { "application/json": { schema: { $ref: "#/components/schemas/QueueStatus" } } } } },
        },
      },
      [`/${app}/requests/{request_id}/status`]: {
        get: { responses: { "200": { content: { "application/json": { schema: { $ref: "#/components/schemas/QueueStatus" } } } } } },
      },
      [`/${app}/requests/{request_id}`]: {
        get: { responses: { "200": { content: { "application/json": { schema: { $ref: `#/components/schemas/${name}Output` } } } } } },
      },
    },
    components: {
      schemas: {
        QueueStatus: { type: "object", properties: { status: { type: "string" } } },
        [`${name}Input`]: input,
        [`${name}Output`]: output,
        ...extra,
      },
    },
  };
}
