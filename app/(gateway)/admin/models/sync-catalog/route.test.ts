import { eq, inArray } from "drizzle-orm";
import { afterEach, describe, expect, test } from "vitest";
import { getDb } from "@/db/client";
import { models } from "@/db/schema";
import { seedEntries } from "@/lib/catalog/seed/entries";
import { setCatalogSource } from "@/lib/catalog/source";
import { createActor } from "@/test/factories";
import { call } from "@/test/http";
import { DELETE, POST as upsert } from "../route";
import { POST } from "./route";

afterEach(() => setCatalogSource(undefined));

describe("POST /admin/models/sync-catalog", () => {
  test("adds what is missing (not what an admin removed), refreshes schemas, keeps admin prices", async () => {
    const db = await getDb();
    const session = (await createActor({ role: "admin" })).session;
    const total = seedEntries().length;
    await db.delete(models).where(inArray(models.modelId, ["fal-ai/whisper", "fal-ai/lyria2"]));
    await call(DELETE, "/admin/models", { method: "DELETE", body: { modelId: "fal-ai/trellis" }, session });
    await call(upsert, "/admin/models", { body: { modelId: "fal-ai/flux/dev", priceRub: "9" }, session });
    await db.update(models).set({ schema: null }).where(eq(models.modelId, "fal-ai/veo3"));

    const res = await call(POST, "/admin/models/sync-catalog", { session });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ before: total - 3, after: total - 1, added: 2, updated: total - 3, elapsedMs: expect.any(Number) });
    const rows = await db.select().from(models);
    const byId = Object.fromEntries(rows.map((r) => [r.modelId, r]));
    expect(byId["fal-ai/whisper"]).toBeDefined();
    expect(byId["fal-ai/trellis"]).toBeUndefined();
    expect(byId["fal-ai/flux/dev"]!.priceRub).toBe("9.00000000");
    expect(byId["fal-ai/veo3"]!.schema).toEqual(seedEntries().find((m) => m.modelId === "fal-ai/veo3")!.schema);
    expect(rows.every((r) => r.schemaFetchedAt !== null)).toBe(true);
  });

  test("a failing provider → 502 provider_error", async () => {
    setCatalogSource({ name: "broken", listModels: () => Promise.reject(new Error("down")), fetchSchema: async () => null });
    const res = await call(POST, "/admin/models/sync-catalog", { session: (await createActor({ role: "admin" })).session });
    expect(res.status).toBe(502);
    expect(res.body).toMatchObject({ error: "provider_error" });
  });

  test("a user's session → 403; an admin's key → 403", async () => {
    expect((await call(POST, "/admin/models/sync-catalog", { session: (await createActor()).session })).status).toBe(403);
    expect((await call(POST, "/admin/models/sync-catalog", { key: (await createActor({ role: "admin" })).key })).status).toBe(403);
  });
});
