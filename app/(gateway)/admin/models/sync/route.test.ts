import { eq } from "drizzle-orm";
import { afterEach, describe, expect, test } from "vitest";
import { getDb } from "@/db/client";
import { models } from "@/db/schema";
import { seedEntries } from "@/lib/catalog/seed/entries";
import { setCatalogSource } from "@/lib/catalog/source";
import { createActor } from "@/test/factories";
import { call } from "@/test/http";
import { POST as upsert } from "../route";
import { POST } from "./route";

afterEach(() => setCatalogSource(undefined));

const admin = async () => (await createActor({ role: "admin" })).session;

describe("POST /admin/models/sync", () => {
  test("refreshes one model's schema from the source, hidden models included", async () => {
    const db = await getDb();
    await db.update(models).set({ schema: null, schemaRu: null, schemaFetchedAt: null }).where(eq(models.modelId, "fal-ai/flux-pro/v1"));
    const res = await call(POST, "/admin/models/sync", { body: { modelId: "fal-ai/flux-pro/v1" }, session: await admin() });
    expect(res.status).toBe(200);
    expect(res.body.model).toMatchObject({ modelId: "fal-ai/flux-pro/v1", visible: false, schemaFetchedAt: expect.any(String) });
    const [row] = await db.select().from(models).where(eq(models.modelId, "fal-ai/flux-pro/v1"));
    expect(row!.schema).toEqual(seedEntries().find((m) => m.modelId === "fal-ai/flux-pro/v1")!.schema);
  });

  test("an admin's Russian description outlives the refresh; the overlay's titles still come from the source", async () => {
    const db = await getDb();
    const session = await admin();
    const text = "Описание, которое написал администратор.";
    expect((await call(upsert, "/admin/models", { body: { modelId: "fal-ai/flux/dev", descriptionRu: text }, session })).status).toBe(201);
    const stored = async () => (await db.select().from(models).where(eq(models.modelId, "fal-ai/flux/dev")))[0]!.schemaRu;
    expect((await stored())?.description).toBe(text);
    expect((await call(POST, "/admin/models/sync", { body: { modelId: "fal-ai/flux/dev" }, session })).status).toBe(200);
    const seed = seedEntries().find((m) => m.modelId === "fal-ai/flux/dev")!.schemaRu!;
    expect(await stored()).toEqual({ ...seed, description: text });
    // null drops it: a Russian page shows the English description (until a refresh brings the source's).
    await call(upsert, "/admin/models", { body: { modelId: "fal-ai/flux/dev", descriptionRu: null }, session });
    expect(await stored()).toEqual({ input: seed.input });
  });

  test("an unknown model, or one the provider does not have, is 404 unknown_model", async () => {
    const session = await admin();
    expect((await call(POST, "/admin/models/sync", { body: { modelId: "fal-ai/nope" }, session })).body).toMatchObject({
      error: "unknown_model",
    });
    await call(upsert, "/admin/models", { body: { modelId: "acme/only-here", displayName: "Only here", category: "music" }, session });
    const res = await call(POST, "/admin/models/sync", { body: { modelId: "acme/only-here" }, session });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ error: "unknown_model", message: "The provider has no model acme/only-here" });
  });

  test("a failing provider → 502 provider_error, and nothing changes", async () => {
    setCatalogSource({
      name: "broken",
      listModels: () => Promise.reject(new Error("down")),
      fetchSchema: () => Promise.reject(new Error("down")),
    });
    const res = await call(POST, "/admin/models/sync", { body: { modelId: "fal-ai/flux/dev" }, session: await admin() });
    expect(res.status).toBe(502);
    expect(res.body).toEqual({ success: false, error: "provider_error", message: "The catalog source (broken) failed; retry later" });
  });

  test("missing modelId → 400 invalid_body; a user's session → 403", async () => {
    expect((await call(POST, "/admin/models/sync", { body: {}, session: await admin() })).body).toMatchObject({
      error: "invalid_body",
      issues: [{ path: ["modelId"] }],
    });
    expect(
      (await call(POST, "/admin/models/sync", { body: { modelId: "fal-ai/flux/dev" }, session: (await createActor()).session })).status,
    ).toBe(403);
  });
});
