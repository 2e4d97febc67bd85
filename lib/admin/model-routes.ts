import { eq } from "drizzle-orm";
import type { Db, Executor } from "@/db/client";
import { models } from "@/db/schema";
import { unknownModel } from "@/lib/catalog/get";
import { listModelRoutes, replaceModelRoutes, type ModelRoute, type ReplaceRoutesBody } from "@/lib/catalog/routes";
import { providerConfigured } from "@/lib/generation";
import { decimalToNumber, parseDecimal } from "@/lib/pricing/decimal";
import { unitMargin } from "@/lib/pricing/margin";
import { quote, type PricedModel } from "@/lib/pricing/pricing";

/**
 * The admin's view of a model's routes (GET and PUT /admin/models/routes): each route as stored,
 * whether this deployment holds that provider's credentials, and the margin per unit: the unit
 * price charged (after the discount) less the route's cost, both per the model's price unit.
 */
export type AdminModelRoutes = Awaited<ReturnType<typeof adminModelRoutes>>;

export async function adminModelRoutes(db: Executor, modelId: string) {
  const model = await pricedModel(db, modelId);
  return view(modelId, model, await listModelRoutes(db, modelId));
}

/** Replaces every route of the model, then answers the list as stored. */
export async function replaceAdminModelRoutes(db: Db, body: ReplaceRoutesBody) {
  const routes = await replaceModelRoutes(db, body);
  return view(body.modelId, await pricedModel(db, body.modelId), routes);
}

async function pricedModel(db: Executor, modelId: string): Promise<PricedModel> {
  const [model] = await db
    .select({
      priceRub: models.priceRub,
      priceUnit: models.priceUnit,
      discountPercent: models.discountPercent,
      creditCost: models.creditCost,
    })
    .from(models)
    .where(eq(models.modelId, modelId));
  if (!model) throw unknownModel(modelId);
  return model;
}

function view(modelId: string, model: PricedModel, routes: ModelRoute[]) {
  // The price of one unit, exact: what a job of one unit is charged before rounding to a credit.
  const unit = quote(model, { units: 1n, scale: 0 });
  const price = unit.unitPriceRub;
  return {
    modelId,
    priceRub: decimalToNumber(price),
    priceUnit: unit.unit,
    routes: routes.map((r) => ({
      provider: r.provider,
      endpointId: r.endpointId,
      inputMap: r.inputMap,
      costRub: r.costRub === null ? null : decimalToNumber(parseDecimal(r.costRub)),
      enabled: r.enabled,
      position: r.position,
      configured: providerConfigured(r.provider),
      ...unitMargin(price, r.costRub),
    })),
  };
}
