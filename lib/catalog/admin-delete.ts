import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { models, modelTombstones } from "@/db/schema";
import { forgetCachedModels, unknownModel } from "./get";

/**
 * DELETE /admin/models: removes the row and records a tombstone in the same transaction, so the
 * seeder and sync-catalog do not bring the model back.
 */
export async function deleteModel(db: Db, modelId: string, adminUserId: string) {
  // The generation path keeps model rows for a moment (getModelForRun): an edit applies at once here.
  return writeDeleteModel(db, modelId, adminUserId).finally(forgetCachedModels);
}

async function writeDeleteModel(db: Db, modelId: string, adminUserId: string) {
  return db.transaction(async (tx) => {
    const [row] = await tx.delete(models).where(eq(models.modelId, modelId)).returning({ modelId: models.modelId });
    if (!row) throw unknownModel(modelId);
    await tx
      .insert(modelTombstones)
      .values({ modelId, deletedBy: adminUserId })
      .onConflictDoUpdate({ target: modelTombstones.modelId, set: { deletedAt: new Date(), deletedBy: adminUserId } });
    return { ok: true as const, modelId };
  });
}
