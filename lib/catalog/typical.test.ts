import { inArray, sql } from "drizzle-orm";
import { describe, expect, test } from "vitest";
import { getDb } from "@/db/client";
import { models, priceUnits, type JsonSchema, type PriceUnit } from "@/db/schema/models";
import { decimalToNumber } from "@/lib/pricing/decimal";
import { typicalQuantity } from "@/lib/pricing/quantity";
import { seedEntries } from "./seed/entries";
import { withDefaults } from "./validate-input";

/**
 * `models.typical_quantity` is computed by PostgreSQL (`catalog_typical_quantity`, migration
 * 0017) and must equal lib/pricing's `typicalQuantity` over the schema's defaults, which the
 * cards show: every seed model, and the corners the seed does not reach.
 */
const js = (unit: PriceUnit | null, input: JsonSchema | undefined) =>
  unit === null ? 1 : decimalToNumber(typicalQuantity(unit, withDefaults(input, {})));

const props = (p: Record<string, unknown>): JsonSchema => ({ type: "object", properties: p });
const def = (v: unknown) => ({ default: v });
const corners: JsonSchema[] = [
  props({}),
  props({ num_images: def(3), image_size: def("landscape_16_9") }),
  props({ num_images: def(2.5), image_size: def({ width: 2048, height: 1536 }) }),
  props({ image_size: def("nonsense"), width: def(800), height: def(600) }),
  props({ aspect_ratio: def("21:9"), num_images: def(2) }),
  props({ aspect_ratio: def("7:5") }),
  props({ upscale_factor: def(2) }),
  props({ upscale_factor: def("1.5") }),
  props({ duration: def("10s") }),
  props({ duration: def("8") }),
  props({ duration: def(-3), seconds_total: def(47.5) }),
  props({ duration_seconds: def(12) }),
  props({ seconds: def(" 6 S ") }),
  props({ text: def("x".repeat(2500)) }),
  props({ text: def(null), prompt: def("ёж".repeat(700)) }),
  props({ input: def(["a".repeat(900), "b".repeat(200), 7]) }),
  props({ text: def("") }),
];

describe("the typical run's units: SQL equals lib/pricing", () => {
  test("for every seed model, as seeded", async () => {
    const db = await getDb();
    const rows = await db
      .select({ id: models.modelId, unit: models.priceUnit, schema: models.schema, q: models.typicalQuantity })
      .from(models);
    const seeded = new Set(seedEntries().map((e) => e.modelId));
    const checked = rows.filter((r) => seeded.has(r.id));
    expect(checked.length).toBe(seeded.size);
    for (const r of checked) expect([r.id, Number(r.q)]).toEqual([r.id, js(r.unit, r.schema?.input)]);
  });

  test("for every unit over schemas with unusual defaults, and without a schema", async () => {
    const db = await getDb();
    const cases = [...corners, undefined].flatMap((input, i) =>
      [...priceUnits, null].map((unit) => ({ input, unit, id: `typical/${i}/${unit}` })),
    );
    await db.insert(models).values(
      cases.map((c) => ({
        modelId: c.id,
        alias: c.id,
        displayName: c.id,
        category: "text-to-image",
        priceRub: "1",
        priceUnit: c.unit,
        schema: c.input ? { input: c.input, output: {} } : null,
        visible: false,
      })),
    );
    const rows = await db
      .select({ id: models.modelId, q: models.typicalQuantity })
      .from(models)
      .where(
        inArray(
          models.modelId,
          cases.map((c) => c.id),
        ),
      );
    const got = new Map(rows.map((r) => [r.id, Number(r.q)]));
    for (const c of cases) expect([c.id, got.get(c.id)]).toEqual([c.id, js(c.unit, c.input)]);
  });

  test("a schema or unit written later, in plain SQL, is counted again", async () => {
    const db = await getDb();
    const id = "fal-ai/flux/dev";
    const read = async () =>
      Number(
        (
          await db
            .select({ q: models.typicalQuantity })
            .from(models)
            .where(sql`model_id = ${id}`)
        )[0]!.q,
      );
    await db.execute(
      sql`update models set price_unit = 'megapixel', schema = jsonb_set(schema, '{input,properties,num_images,default}', '4') where model_id = ${id}`,
    );
    expect(await read()).toBeCloseTo(4 * 1.048576, 9);
    await db.execute(sql`update models set price_unit = 'image' where model_id = ${id}`);
    expect(await read()).toBe(4);
  });
});
