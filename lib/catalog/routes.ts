import { asc, eq } from "drizzle-orm";
import { z } from "zod";
import type { Db, Executor } from "@/db/client";
import { modelRoutes, models, providerNames, type ModelRouteRow } from "@/db/schema";
import { processWide } from "@/lib/core/process-wide";
import { formatDecimal, isDecimalError, parseDecimal } from "@/lib/pricing/decimal";
import { unknownModel } from "./get";

/**
 * A model's routes: the providers that can run it, in the admin's order, each with the provider's
 * id of the model, the input names that differ there and what the provider charges per unit
 * (db/schema/routes.ts). The engine plans a job's routes from them (lib/generation/routing.ts);
 * the admin replaces the whole list at once (PUT /admin/models/routes), so an order is never half
 * written.
 */
export type ModelRoute = Pick<ModelRouteRow, "provider" | "endpointId" | "inputMap" | "costRub" | "enabled" | "position">;

const inputName = z
  .string()
  .min(1)
  .max(100)
  .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "an input name: letters, digits and '_'");

/** A cost per unit in rubles: a decimal string (or number) ≥ 0 with at most 8 decimals, kept exact. */
const costRub = z.union([z.string(), z.number()]).transform((v, ctx) => {
  try {
    const d = parseDecimal(v);
    if (d.units < 0n || d.scale > 8) ctx.addIssue({ code: "custom", message: "a decimal ≥ 0 with at most 8 decimals" });
    return formatDecimal(d);
  } catch (err) {
    if (!isDecimalError(err)) throw err;
    ctx.addIssue({ code: "custom", message: "Expected a decimal number" });
    return z.NEVER;
  }
});

export const routeInput = z
  .object({
    provider: z.enum(providerNames).meta({ description: "Who runs it: fal, replicate or local (the simulator)" }),
    endpointId: z
      .string()
      .trim()
      .min(1)
      .max(200)
      .meta({ description: "The provider's id of the model: fal's endpoint id, Replicate's owner/name or owner/name:version" }),
    inputMap: z
      .record(inputName, inputName)
      .default({})
      .meta({ description: "Our input names → the provider's, where they differ; the rest pass as they are" }),
    costRub: costRub
      .nullable()
      .default(null)
      .meta({ description: "What the provider charges per unit of the model's price unit, in rubles; null: unknown" }),
    enabled: z.boolean().default(true),
  })
  .meta({ id: "ModelRouteInput" });

export const replaceRoutesBody = z
  .object({
    modelId: z.string().min(1).max(200),
    routes: z
      .array(routeInput)
      .max(providerNames.length)
      .refine((r) => new Set(r.map((x) => x.provider)).size === r.length, "one route per provider")
      .meta({
        description: "Every route of the model, in the order they are tried; [] removes them (the model runs on PROVIDER under its alias)",
      }),
  })
  .meta({ id: "ModelRoutesReplace" });
export type ReplaceRoutesBody = z.output<typeof replaceRoutesBody>;

const select = {
  provider: modelRoutes.provider,
  endpointId: modelRoutes.endpointId,
  inputMap: modelRoutes.inputMap,
  costRub: modelRoutes.costRub,
  enabled: modelRoutes.enabled,
  position: modelRoutes.position,
};

/** A model's routes in order (disabled ones included). */
export async function listModelRoutes(db: Executor, modelId: string): Promise<ModelRoute[]> {
  return db
    .select(select)
    .from(modelRoutes)
    .where(eq(modelRoutes.modelId, modelId))
    .orderBy(asc(modelRoutes.position), asc(modelRoutes.provider));
}

/** Replaces a model's routes (404 for a model not in the catalog); answers them as stored. */
export async function replaceModelRoutes(db: Db, body: ReplaceRoutesBody): Promise<ModelRoute[]> {
  const stored = await db.transaction(async (tx) => {
    const [model] = await tx.select({ id: models.modelId }).from(models).where(eq(models.modelId, body.modelId)).for("update");
    if (!model) throw unknownModel(body.modelId);
    await tx.delete(modelRoutes).where(eq(modelRoutes.modelId, body.modelId));
    if (body.routes.length)
      await tx.insert(modelRoutes).values(body.routes.map((r, position) => ({ ...r, modelId: body.modelId, position })));
    return listModelRoutes(tx, body.modelId);
  });
  forgetCachedRoutes();
  return stored;
}

const CACHE_MS = 2_000;
const cached = processWide("catalog.model-routes", () => new Map<string, { db: Executor; routes: ModelRoute[]; at: number }>());

/**
 * The enabled routes of a model, for the generation path: kept two seconds per process like the
 * model's row (./get.ts cachedModelRow), forgotten with it on this process's catalog writes.
 */
export async function cachedModelRoutes(db: Executor, modelId: string): Promise<ModelRoute[]> {
  const hit = cached.get(modelId);
  if (hit && hit.db === db && Date.now() - hit.at < CACHE_MS) return hit.routes;
  const routes = (await listModelRoutes(db, modelId)).filter((r) => r.enabled);
  cached.set(modelId, { db, routes, at: Date.now() });
  return routes;
}

export const forgetCachedRoutes = () => cached.clear();
