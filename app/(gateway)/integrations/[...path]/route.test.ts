import { and, eq } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { getDb } from "@/db/client";
import { activity, assets, creditTransactions, generationRequests } from "@/db/schema";
import { GET as getFile } from "@/app/files/[...key]/route";
import { GET as getOpenApi } from "@/app/(gateway)/openapi.json/route";
import { POST as upload } from "@/app/(gateway)/me/uploads/route";
import { coverAnswer, COVER_LIMITS } from "@/lib/integrations/covers/schemas";
import { getBalanceCredits, grantCredits } from "@/lib/billing/ledger/ledger";
import { estimateModel } from "@/lib/catalog/estimate";
import { env, resetEnv } from "@/lib/core/env";
import { COVER_IMAGE_INPUT } from "@/lib/integrations/covers/generate-cover-image";
import { overlayCoverText } from "@/lib/integrations/text-overlay/overlay-cover-text";
import { squareCover } from "@/lib/integrations/text-overlay/square-cover";
import { createActor, createApiKey } from "@/test/factories";
import { call } from "@/test/http";
import * as media from "@/test/media";
import { startMediaOrigin, type MediaOrigin } from "@/test/servers/media-origin";
import { DELETE, GET, POST } from "./route";

const SLUG = "covers";
const START_CREDITS = 1_000_000; // 100 ₽
const release = { artist: "Земфира", release_name: "Полночный экспресс", genre: "rock" };
const generateBody = { ...release, text: "Поезд уходит в ночь, огни города тают за окном" };

let origin: MediaOrigin;
beforeAll(async () => {
  origin = await startMediaOrigin("127.0.0.2");
});
afterAll(() => origin.close());
afterEach(() => {
  delete process.env.ALLOW_PRIVATE_URLS;
  delete process.env.INTEGRATION_SLUG;
  resetEnv();
});

const post = (segment: string, body: unknown, key?: string) =>
  call(POST, `/integrations/${segment}`, { key, body, params: { path: [segment] } });

async function funded() {
  const actor = await createActor();
  await grantCredits(await getDb(), {
    userId: actor.user.id,
    credits: START_CREDITS,
    type: "grant",
    idempotencyKey: `test:${actor.user.id}`,
  });
  return actor;
}

/** What the engine quotes for one cover on the configured model. */
async function coverQuoteCredits(): Promise<number> {
  const estimate = await estimateModel(await getDb(), env().INTEGRATION_MODEL_ID, { prompt: "x", ...COVER_IMAGE_INPUT });
  return estimate.estimatedCostCredits;
}

/** The bytes behind one of the service's own file URLs, through the file route. */
async function fetchOwn(url: string): Promise<Buffer> {
  const path = new URL(url).pathname;
  const res = await call(getFile, path, { params: { key: path.replace(/^\/files\//, "").split("/") } });
  expect(res.status).toBe(200);
  return Buffer.from(await res.response.arrayBuffer());
}

async function uploadImage(key: string, bytes: Uint8Array): Promise<string> {
  const { body, contentType } = media.multipart(bytes, { filename: "cover.png", contentType: "image/png" });
  const res = await call(upload, "/me/uploads", { key, body, headers: { "content-type": contentType } });
  expect(res.status).toBe(201);
  return res.body.url;
}

/** A calm reference picture: a vertical gradient with one disc in the middle. */
async function referencePicture(side = 768): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${side}" height="${side}">
    <defs><linearGradient id="g" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#1d3557"/><stop offset="1" stop-color="#457b9d"/></linearGradient></defs>
    <rect width="100%" height="100%" fill="url(#g)"/><circle cx="${side / 2}" cy="${side / 2}" r="${side / 5}" fill="#e63946"/></svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

async function rgb(bytes: Uint8Array) {
  return sharp(bytes).removeAlpha().raw().toBuffer({ resolveWithObject: true });
}

async function ledgerOf(userId: string) {
  const db = await getDb();
  return db.select().from(creditTransactions).where(eq(creditTransactions.userId, userId)).orderBy(creditTransactions.createdAt);
}

describe("success", () => {
  test("generate: a stored square cover from the prompt, billed exactly as the generation costs", async () => {
    const actor = await funded();
    const res = await post(SLUG, generateBody, actor.key);
    expect(res.status).toBe(200);
    expect(coverAnswer.parse(res.body)).toEqual({
      success: true,
      message: "Cover generated",
      ...release,
      text_length: [...generateBody.text].length,
      cover_image_url: expect.stringMatching(/^http:\/\/localhost:3000\/files\//),
      cover_image_prompt: expect.stringContaining('Square album cover artwork for a rock release titled "Полночный экспресс".'),
    });
    expect(res.body.cover_image_prompt).toContain("Поезд уходит в ночь");
    expect(res.body.cover_image_prompt).not.toContain(release.artist);

    const meta = await sharp(await fetchOwn(res.body.cover_image_url)).metadata();
    expect(meta.width).toBe(1024);
    expect(meta.height).toBe(1024);

    const cost = await coverQuoteCredits();
    expect(cost).toBeGreaterThan(0);
    const db = await getDb();
    expect(await getBalanceCredits(db, actor.user.id)).toBe(START_CREDITS - cost);
    const [generation] = await db.select().from(generationRequests).where(eq(generationRequests.userId, actor.user.id));
    expect(generation).toMatchObject({ modelId: env().INTEGRATION_MODEL_ID, status: "completed", costSettledCredits: cost });
    expect(generation!.input).toMatchObject({ prompt: res.body.cover_image_prompt, image_size: "square_hd", num_images: 1 });
    const [record] = await db.select().from(activity).where(eq(activity.requestId, generation!.id));
    expect(record).toMatchObject({ operation: "integration", status: "completed", credits: cost });
    const [stored] = await db
      .select()
      .from(assets)
      .where(and(eq(assets.userId, actor.user.id), eq(assets.publicUrl, res.body.cover_image_url)));
    expect(stored).toMatchObject({ status: "stored", generationId: generation!.id });
  });

  test("edit: a Cyrillic artist and title are drawn on an uploaded reference, free of charge, stored as an integration asset", async () => {
    const actor = await funded();
    const reference = await referencePicture();
    const url = await uploadImage(actor.key, reference);
    const res = await post(`${SLUG}-edit`, { ...release, reference_image: url }, actor.key);
    expect(res.status).toBe(200);
    expect(coverAnswer.parse(res.body)).toEqual({
      success: true,
      message: "Text added to the cover",
      ...release,
      text_length: [...release.release_name].length + [...release.artist].length,
      cover_image_url: expect.stringMatching(/^http:\/\/localhost:3000\/files\/r\/.+\.jpg$/),
      cover_image_prompt: null,
    });

    const out = await fetchOwn(res.body.cover_image_url);
    const meta = await sharp(out).metadata();
    expect({ format: meta.format, width: meta.width, height: meta.height }).toEqual({ format: "jpeg", width: 768, height: 768 });
    // Where the text goes on this picture (the layout is deterministic), compared with the reference.
    const { textBox } = await overlayCoverText(reference, { title: release.release_name, artist: release.artist });
    const [edited, original] = [await rgb(out), await squareCover(reference)];
    expect(media.meanDiff(edited.data, original.rgb, 768, textBox)).toBeGreaterThan(12);
    // Away from the text the picture is the reference (JPEG noise aside).
    const middle = { left: 0, top: 300, width: 768, height: 100 };
    expect(media.meanDiff(edited.data, original.rgb, 768, middle)).toBeLessThan(2);

    const db = await getDb();
    expect(await getBalanceCredits(db, actor.user.id)).toBe(START_CREDITS);
    expect(await db.select().from(generationRequests).where(eq(generationRequests.userId, actor.user.id))).toEqual([]);
    const [stored] = await db
      .select()
      .from(assets)
      .where(and(eq(assets.userId, actor.user.id), eq(assets.kind, "integration")));
    expect(stored).toMatchObject({
      status: "stored",
      contentType: "image/jpeg",
      sizeBytes: out.length,
      sourceUrl: url,
      publicUrl: res.body.cover_image_url,
    });
  });

  test("edit without a reference generates the cover first, billed like generate", async () => {
    const actor = await funded();
    const res = await post(`${SLUG}-edit`, release, actor.key);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      success: true,
      message: "Cover generated and text added",
      cover_image_prompt: expect.stringContaining("rock release"),
    });
    const meta = await sharp(await fetchOwn(res.body.cover_image_url)).metadata();
    expect([meta.width, meta.height]).toEqual([1024, 1024]);
    expect(await getBalanceCredits(await getDb(), actor.user.id)).toBe(START_CREDITS - (await coverQuoteCredits()));
  });

  test("render flags: false leaves a text off, a string replaces it", async () => {
    const actor = await funded();
    const url = await uploadImage(actor.key, await referencePicture(512));
    const onlyArtist = await post(`${SLUG}-edit`, { ...release, reference_image: url, render_track_text: false }, actor.key);
    expect(onlyArtist.body.text_length).toBe([...release.artist].length);
    const custom = await post(
      `${SLUG}-edit`,
      { ...release, reference_image: url, render_track_text: "Vol. 2", render_artist_text: "" },
      actor.key,
    );
    expect(custom.status).toBe(200);
    expect(custom.body.text_length).toBe(6);
  });

  test("a remote reference image is fetched under the outbound rules", async () => {
    process.env.ALLOW_PRIVATE_URLS = "true"; // the stand-in origin lives on loopback
    resetEnv();
    const actor = await funded();
    origin.file("/cover.png", await referencePicture(600), "image/png");
    const res = await post(`${SLUG}-edit`, { ...release, reference_image: origin.url("/cover.png") }, actor.key);
    expect(res.status).toBe(200);
    expect((await sharp(await fetchOwn(res.body.cover_image_url)).metadata()).width).toBe(600);
    expect(origin.hits.get("/cover.png")).toBe(1);
  });

  test("a sandbox key generates on the simulator and leaves the balance alone; a session works like a key", async () => {
    const actor = await funded();
    const sandbox = await createApiKey(actor.user, { mode: "test" });
    const res = await post(SLUG, generateBody, sandbox.key);
    expect(res.status).toBe(200);
    expect(await getBalanceCredits(await getDb(), actor.user.id)).toBe(START_CREDITS);
    const viaSession = await call(POST, `/integrations/${SLUG}`, { session: actor.session, body: generateBody, params: { path: [SLUG] } });
    expect(viaSession.status).toBe(200);
    expect(await getBalanceCredits(await getDb(), actor.user.id)).toBe(START_CREDITS - (await coverQuoteCredits()));
  });

  test("the slug comes from INTEGRATION_SLUG", async () => {
    process.env.INTEGRATION_SLUG = "partner";
    resetEnv();
    const actor = await funded();
    const url = await uploadImage(actor.key, await referencePicture(512));
    expect((await post("partner-edit", { ...release, reference_image: url }, actor.key)).status).toBe(200);
    expect((await post(`${SLUG}-edit`, { ...release, reference_image: url }, actor.key)).status).toBe(404);
  });
});

describe("limits", () => {
  test("a cover counts against the per-user hourly generation limit, like /run and /queue", async () => {
    process.env.RATE_LIMIT_USER_GENERATIONS_PER_HOUR = "1";
    resetEnv();
    try {
      const actor = await funded();
      expect((await post(SLUG, generateBody, actor.key)).status).toBe(200);
      const second = await post(SLUG, generateBody, actor.key);
      expect(second.status).toBe(429);
      expect(second.body).toEqual({ success: false, error: "rate_limited", message: expect.any(String) });
      expect(await getBalanceCredits(await getDb(), actor.user.id)).toBe(START_CREDITS - (await coverQuoteCredits()));
    } finally {
      delete process.env.RATE_LIMIT_USER_GENERATIONS_PER_HOUR;
      resetEnv();
    }
  });
});

describe("failures are refunded", () => {
  test("generate: a failing generation answers 500 generation_failed and returns every credit", async () => {
    const actor = await funded();
    const res = await post(SLUG, { ...generateBody, text: "a song [fail:generation]" }, actor.key);
    expect(res.status).toBe(500);
    expect(res.body).toMatchObject({ success: false, error: "generation_failed", message: expect.any(String) });
    expect(await getBalanceCredits(await getDb(), actor.user.id)).toBe(START_CREDITS);
    const cost = await coverQuoteCredits();
    const moves = (await ledgerOf(actor.user.id)).filter((t) => t.generationId).map((t) => t.amount);
    expect(moves).toEqual([-cost, cost]);
    const db = await getDb();
    const [record] = await db.select().from(activity).where(eq(activity.userId, actor.user.id));
    expect(record).toMatchObject({ operation: "integration", status: "failed", credits: 0 });
  });

  test("a provider that fails once, then accepts, while taking time: 200 with the cover, charged once", async () => {
    const actor = await funded();
    const res = await post(SLUG, { ...generateBody, text: "a song [fail:provider:1] [latency:600]" }, actor.key);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, cover_image_url: expect.stringContaining("/files/") });
    const cost = await coverQuoteCredits();
    expect((await ledgerOf(actor.user.id)).filter((t) => t.generationId).map((t) => t.amount)).toEqual([-cost]);
  });

  test("a provider that keeps failing: 502 provider_error with the request id, refunded before the answer", async () => {
    const actor = await funded();
    const res = await post(SLUG, { ...generateBody, text: "a song [fail:provider]" }, actor.key);
    expect(res.status).toBe(502);
    expect(res.body).toMatchObject({ success: false, error: "provider_error", requestId: expect.any(String) });
    expect(await getBalanceCredits(await getDb(), actor.user.id)).toBe(START_CREDITS);
  });

  test("edit without a reference: the failed generation is refunded and nothing is stored", async () => {
    const actor = await funded();
    const res = await post(`${SLUG}-edit`, { ...release, release_name: "Crash [fail:generation]" }, actor.key);
    expect(res.status).toBe(500);
    expect(res.body.error).toBe("generation_failed");
    const db = await getDb();
    expect(await getBalanceCredits(db, actor.user.id)).toBe(START_CREDITS);
    expect(await db.select().from(assets).where(eq(assets.userId, actor.user.id))).toEqual([]);
  });

  test("no balance: 402 insufficient_balance, nothing generated", async () => {
    const actor = await createActor();
    const res = await post(SLUG, generateBody, actor.key);
    expect(res.status).toBe(402);
    expect(res.body).toMatchObject({ success: false, error: "insufficient_balance", recovery: { action: "topup", url: "/billing/topup" } });
  });
});

const envelope = (error: string) => ({ success: false, error, message: expect.any(String) });

describe("validation", () => {
  test.each(["artist", "release_name", "genre", "text"] as const)("generate without %s → 400 with an issue on it", async (field) => {
    const actor = await funded();
    const body: Record<string, string> = { ...generateBody };
    delete body[field];
    const res = await post(SLUG, body, actor.key);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ ...envelope("invalid_body"), issues: [{ path: [field], message: `${field} is required` }] });
    expect(await getBalanceCredits(await getDb(), actor.user.id)).toBe(START_CREDITS);
  });

  test.each(["artist", "release_name", "genre"] as const)("edit without %s → 400 with an issue on it", async (field) => {
    const actor = await funded();
    const body: Record<string, string> = { ...release, reference_image: "https://example.com/x.png" };
    delete body[field];
    const res = await post(`${SLUG}-edit`, body, actor.key);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ ...envelope("invalid_body"), issues: [{ path: [field], message: `${field} is required` }] });
  });

  test.each([
    [
      "text over the limit",
      { ...generateBody, text: "a".repeat(COVER_LIMITS.text + 1) },
      ["text"],
      `text must be at most ${COVER_LIMITS.text} characters`,
    ],
    ["a blank artist", { ...generateBody, artist: "   " }, ["artist"], "artist must not be empty"],
    ["a number for genre", { ...generateBody, genre: 5 }, ["genre"], "genre must be a string"],
  ])("generate with %s → 400 naming the field", async (_, body, path, message) => {
    const actor = await funded();
    const res = await post(SLUG, body, actor.key);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ ...envelope("invalid_body"), issues: [{ path, message }] });
  });

  test("edit with nothing to render → 400", async () => {
    const actor = await funded();
    const res = await post(`${SLUG}-edit`, { ...release, render_track_text: false, render_artist_text: false }, actor.key);
    expect(res.status).toBe(400);
    expect(res.body.issues).toEqual([
      { path: ["render_track_text"], message: "Nothing to render: render_track_text and render_artist_text are both off" },
    ]);
  });

  test("a reference that is not an image, or on a refused address, is a 400 on reference_image", async () => {
    const actor = await funded();
    origin.file("/page.html", "<html>hi</html>", "text/html");
    process.env.ALLOW_PRIVATE_URLS = "true";
    resetEnv();
    const notImage = await post(`${SLUG}-edit`, { ...release, reference_image: origin.url("/page.html") }, actor.key);
    expect(notImage.status).toBe(400);
    expect(notImage.body.issues[0].path).toEqual(["reference_image"]);
    delete process.env.ALLOW_PRIVATE_URLS;
    resetEnv();
    const blocked = await post(`${SLUG}-edit`, { ...release, reference_image: origin.url("/cover.png") }, actor.key);
    expect(blocked.status).toBe(400);
    expect(blocked.body).toMatchObject({ ...envelope("invalid_body"), message: expect.stringContaining("blocked_address") });
  });

  test.each([["unknown"], ["covers-edit-x"], ["-edit"], ["coversedit"]])("unknown slug %s → 404 not_found", async (segment) => {
    const actor = await funded();
    const res = await post(segment, generateBody, actor.key);
    expect(res.status).toBe(404);
    expect(res.body).toEqual(envelope("not_found"));
  });

  test("deeper paths and other methods → 404 not_found", async () => {
    const actor = await funded();
    const deep = await call(POST, `/integrations/${SLUG}/x`, { key: actor.key, body: generateBody, params: { path: [SLUG, "x"] } });
    expect(deep.body).toEqual(envelope("not_found"));
    for (const handler of [GET, DELETE]) {
      const res = await call(handler, `/integrations/${SLUG}`, {
        key: actor.key,
        method: handler === GET ? "GET" : "DELETE",
        params: { path: [SLUG] },
      });
      expect(res.status).toBe(404);
    }
  });
});

describe("auth", () => {
  test("no key → 401, before the slug or body is looked at", async () => {
    const res = await post("unknown", {});
    expect(res.status).toBe(401);
    expect(res.body).toEqual(envelope("unauthorized"));
  });
});

describe("openapi", () => {
  test("documents both operations with their bodies and answer", async () => {
    const { body } = await call(getOpenApi, "/openapi.json");
    expect(body.paths["/integrations/{slug}"].post.operationId).toBe("generateCover");
    expect(body.paths["/integrations/{slug}-edit"].post.operationId).toBe("editCover");
    expect(body.components.schemas.CoverGenerateRequest.required).toEqual(["artist", "release_name", "genre", "text"]);
    expect(body.components.schemas.CoverEditRequest.required).toEqual(["artist", "release_name", "genre"]);
    expect(Object.keys(body.components.schemas.CoverAnswer.properties)).toEqual([
      "success",
      "message",
      "artist",
      "release_name",
      "genre",
      "text_length",
      "cover_image_url",
      "cover_image_prompt",
    ]);
  });
});
