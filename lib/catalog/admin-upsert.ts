import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { models, modelTombstones } from "@/db/schema";
import { typicalCreditCost } from "@/lib/catalog/seed/entries";
import { DomainError } from "@/lib/core/errors";
import { compareDecimal, formatDecimal, parseDecimal } from "@/lib/pricing/decimal";
import { listPriceFor, quote } from "@/lib/pricing/pricing";
import { LIST_PRICE_SCALE, MAX_LIST_PRICE, type UpsertModelBody } from "./admin-input";
import { toAdminRecord } from "./admin-record";
import type { ModelRow } from "./columns";
import { forgetCachedModels } from "./get";
import { overlayWithDescription } from "./overlay-description";

type Price = Pick<ModelRow, "priceRub" | "priceUnit" | "discountPercent" | "creditCost" | "originalPriceRub">;

const badPrice = (path: "priceRub" | "originalPriceRub", message: string) =>
  new DomainError("invalid_body", message, { issues: [{ path: [path], message }] });

/**
 * The list price to store. The body speaks like the record: `priceRub` is the unit price charged
 * (discount applied), `originalPriceRub` the price before the discount. The row keeps the list
 * price and the discount (what billing computes from), so a `priceRub` alone under a discount is
 * turned back into the list price, which must then be exact to 8 decimals.
 */
function listPrice(body: UpsertModelBody, current: Price | undefined, discountPercent: string): string | null {
  const d = parseDecimal(discountPercent);
  if (body.originalPriceRub !== undefined) {
    if (body.priceRub !== undefined) {
      const charged = body.priceRub === null ? null : parseDecimal(body.priceRub);
      const expected = quote(
        { priceRub: body.originalPriceRub, priceUnit: null, discountPercent, creditCost: 0 },
        parseDecimal(1),
      ).unitPriceRub;
      if (charged === null || compareDecimal(charged, expected) !== 0) {
        throw badPrice(
          "priceRub",
          `priceRub must be originalPriceRub with the discount applied (${formatDecimal(expected)}), or be left out`,
        );
      }
    }
    return body.originalPriceRub;
  }
  if (body.priceRub === undefined) return current?.priceRub ?? null;
  if (body.priceRub === null) return null;
  const list = listPriceFor(parseDecimal(body.priceRub), d, LIST_PRICE_SCALE);
  if (list === null || compareDecimal(list, MAX_LIST_PRICE) > 0) {
    throw badPrice(
      "priceRub",
      `At ${formatDecimal(d)} % off no list price with at most ${LIST_PRICE_SCALE} decimals gives exactly ${body.priceRub}; send originalPriceRub (the price before the discount) instead`,
    );
  }
  return formatDecimal(list);
}

/**
 * Price fields move together: the stored originalPriceRub is the list price the discount is taken
 * from (while a discount applies, else null), and creditCost (whole rubles of a typical unit)
 * follows the price unless the admin sets it.
 */
function priceFields(body: UpsertModelBody, current: Price | undefined): Price {
  const discountPercent = body.discountPercent ?? current?.discountPercent ?? "0";
  const priceRub = listPrice(body, current, discountPercent);
  const priceUnit = body.priceUnit !== undefined ? body.priceUnit : (current?.priceUnit ?? null);
  const discounted = parseDecimal(discountPercent).units > 0n;
  const priceChanged =
    body.priceRub !== undefined ||
    body.originalPriceRub !== undefined ||
    body.priceUnit !== undefined ||
    body.discountPercent !== undefined;
  const creditCost =
    body.creditCost ??
    (priceChanged && priceRub !== null
      ? typicalCreditCost({ priceRub, priceUnit, discountPercent: Number(discountPercent), creditCost: 0 })
      : (current?.creditCost ?? 0));
  return { priceRub, priceUnit, discountPercent, creditCost, originalPriceRub: discounted ? priceRub : null };
}

const DESCRIPTIVE = [
  "alias",
  "displayName",
  "category",
  "description",
  "visible",
  "modelLab",
  "modelFamily",
  "groupLabel",
  "tags",
  "licenseType",
  "thumbnailUrl",
] as const;

/** The non-price fields the body sets (absent ones are left as they are). */
function descriptive(body: UpsertModelBody): Partial<typeof models.$inferInsert> {
  return Object.fromEntries(DESCRIPTIVE.filter((k) => body[k] !== undefined).map((k) => [k, body[k]]));
}

/** The Russian description, which lives in the overlay (`schemaRu.description`). */
const russianDescription = (body: UpsertModelBody) =>
  body.descriptionRu === undefined ? {} : { schemaRu: overlayWithDescription(body.descriptionRu) };

/** POST /admin/models: creates the model, or updates only the fields given. */
export async function upsertModel(db: Db, body: UpsertModelBody) {
  // The generation path keeps model rows for a moment (getModelForRun): an edit applies at once here.
  return writeUpsertModel(db, body).finally(forgetCachedModels);
}

async function writeUpsertModel(db: Db, body: UpsertModelBody) {
  return db.transaction(async (tx) => {
    const [current] = await tx.select().from(models).where(eq(models.modelId, body.modelId)).for("update");
    if (current) {
      const [row] = await tx
        .update(models)
        .set({ ...descriptive(body), ...russianDescription(body), ...priceFields(body, current) })
        .where(eq(models.modelId, body.modelId))
        .returning();
      return { model: toAdminRecord(row!), created: false };
    }
    const missing = (["displayName", "category"] as const).filter((f) => body[f] === undefined);
    if (missing.length) {
      throw new DomainError("invalid_body", `A new model needs ${missing.join(" and ")}`, {
        issues: missing.map((f) => ({ path: [f], message: "Required when creating a model" })),
      });
    }
    const [row] = await tx
      .insert(models)
      .values({
        ...descriptive(body),
        ...(body.descriptionRu ? { schemaRu: { input: {}, description: body.descriptionRu } } : {}),
        ...priceFields(body, undefined),
        modelId: body.modelId,
        alias: body.alias ?? body.modelId,
        displayName: body.displayName!,
        category: body.category!,
      })
      .onConflictDoNothing({ target: models.modelId })
      .returning();
    if (!row) throw new DomainError("conflict", "The model was created concurrently; retry to update it");
    await tx.delete(modelTombstones).where(eq(modelTombstones.modelId, body.modelId));
    return { model: toAdminRecord(row), created: true };
  });
}
