import { log } from "@/lib/core/logger";
import { isProviderRejected, ProviderRejectedError, ProviderUnavailableError, type ProviderOperation } from "../errors";
import { badResponse, parseAnswer, providerFetch, rejection, type HttpConfig, type ProviderResponse } from "../http";
import { decimalString, falModelsSchema, falPricingSchema, modelSchemaFromOpenApi } from "./schemas";
import type { ListModelsOptions, ModelListPage, ModelSchema, ProviderModel } from "../types";

/**
 * fal's Platform API (api.fal.ai/v1, notes/fal.md §6): the model listing, each model's OpenAPI
 * document and the unit prices. The queue calls are in ./provider.ts, which delegates here.
 */
export class FalPlatform {
  constructor(
    private readonly http: HttpConfig,
    private readonly apiUrl: string,
  ) {}

  async schema(endpointId: string, options: { signal?: AbortSignal } = {}): Promise<ModelSchema> {
    const url = new URL(`${this.apiUrl}/models`);
    url.searchParams.append("endpoint_id", endpointId);
    url.searchParams.append("expand", "openapi-3.0");
    const res = await this.get("schema", url, options.signal);
    const body = parseAnswer("fal", falModelsSchema, res, "model listing");
    const model = body.models.find((m) => m.endpoint_id === endpointId);
    if (!model) throw new ProviderRejectedError("fal", "schema", `fal does not know ${endpointId}`, { status: 404, reason: "not_found" });
    if (model.openapi && "error" in model.openapi) {
      throw new ProviderUnavailableError("fal", "schema", `fal could not produce the schema of ${endpointId}`, { reason: "server_error" });
    }
    const schema = modelSchemaFromOpenApi(model.openapi);
    if (!schema) throw badResponse("fal", "schema", `OpenAPI document for ${endpointId}`);
    return schema;
  }

  async listModels(options: ListModelsOptions = {}): Promise<ModelListPage> {
    const url = new URL(`${this.apiUrl}/models`);
    url.searchParams.set("limit", String(Math.min(50, Math.max(1, options.limit ?? 50))));
    if (options.cursor) url.searchParams.set("cursor", options.cursor);
    if (options.category) url.searchParams.set("category", options.category);
    if (options.query) url.searchParams.set("q", options.query);
    if (options.status) url.searchParams.set("status", options.status);
    for (const id of options.endpointIds ?? []) url.searchParams.append("endpoint_id", id);
    const body = parseAnswer("fal", falModelsSchema, await this.get("models", url, options.signal), "model listing");
    const prices = await this.prices(
      body.models.map((m) => m.endpoint_id),
      options.signal,
    );
    const models: ProviderModel[] = body.models.map(({ endpoint_id, metadata }) => ({
      endpointId: endpoint_id,
      displayName: metadata?.display_name ?? endpoint_id,
      category: metadata?.category ?? "other",
      description: metadata?.description ?? "",
      status: metadata?.status ?? "active",
      tags: metadata?.tags ?? [],
      thumbnailUrl: metadata?.thumbnail_url ?? null,
      licenseType: metadata?.license_type ?? null,
      price: prices.get(endpoint_id) ?? null,
    }));
    return { models, nextCursor: body.has_more === false ? null : (body.next_cursor ?? null) };
  }

  /** Unit prices of up to 50 endpoints. Needs a key: without one (or without the right) none are known. */
  private async prices(endpointIds: string[], signal?: AbortSignal) {
    const prices = new Map<string, ProviderModel["price"]>();
    if (!endpointIds.length || !this.http.authorization) return prices;
    const url = new URL(`${this.apiUrl}/models/pricing`);
    for (const id of endpointIds.slice(0, 50)) url.searchParams.append("endpoint_id", id);
    let res: ProviderResponse;
    try {
      res = await this.get("models", url, signal);
    } catch (err) {
      if (isProviderRejected(err) && err.reason === "unauthorized") {
        log.warn("fal refused the pricing call; listing models without prices", { status: err.status });
        return prices;
      }
      throw err;
    }
    for (const p of parseAnswer("fal", falPricingSchema, res, "pricing").prices) {
      prices.set(p.endpoint_id, { unitPrice: decimalString(p.unit_price), unit: p.unit, currency: p.currency });
    }
    return prices;
  }

  private async get(operation: ProviderOperation, url: URL, signal?: AbortSignal): Promise<ProviderResponse> {
    const res = await providerFetch(this.http, { operation, method: "GET", url: url.toString(), retry: "idempotent", signal });
    if (res.status >= 300) throw rejection("fal", operation, res, "Platform API refused");
    return res;
  }
}
