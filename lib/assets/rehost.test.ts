import { randomUUID } from "node:crypto";
import { readdir, stat } from "node:fs/promises";
import path from "node:path";
import { ListObjectsV2Command, S3Client } from "@aws-sdk/client-s3";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { getDb } from "@/db/client";
import { assets } from "@/db/schema";
import { env } from "@/lib/core/env";
import { localStorage } from "@/lib/storage/local";
import { setStorage, type ObjectSource, type ObjectStorage } from "@/lib/storage";
import { createUser } from "@/test/factories";
import * as media from "@/test/media";
import { startMediaOrigin, type MediaOrigin } from "@/test/servers/media-origin";
import { startS3Server, type S3Server } from "@/test/servers/s3";
import { deleteAssetRows } from "./delete-assets";
import { markWrittenStored } from "@/lib/generation/store";
import { rehostResult, type RehostOptions, type WrittenAsset } from "./rehost";

// The provider's CDN is on 127.0.0.2, allowed by name; 127.0.0.1 is the service's own network.
const net = { policy: { allow: ["127.0.0.2/32"] } };
let cdn: MediaOrigin;
let internal: MediaOrigin;
let s3: S3Server;
const pngs: Buffer[] = [];

beforeAll(async () => {
  [cdn, internal, s3] = await Promise.all([startMediaOrigin("127.0.0.2"), startMediaOrigin("127.0.0.1"), startS3Server()]);
  for (let i = 0; i < 3; i++) pngs.push(await media.image("png", 16, i));
  internal.file("/private.png", pngs[0]!, "image/png");
});
afterAll(async () => {
  await Promise.all([cdn.close(), internal.close(), s3.close()]);
});

const s3Client = () =>
  new S3Client({
    endpoint: s3.endpoint,
    region: "us-east-1",
    forcePathStyle: true,
    credentials: { accessKeyId: s3.options.accessKeyId!, secretAccessKey: s3.options.secretAccessKey! },
  });

async function walk(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  const nested = await Promise.all(
    entries.filter((e) => !e.name.startsWith(".")).map((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)])),
  );
  return nested.flat();
}

const drivers: [string, () => ObjectStorage, (prefix: string) => Promise<string[]>][] = [
  [
    "local",
    () => localStorage({ root: path.resolve(env().DATA_DIR, "assets"), baseUrl: "http://localhost:3000" }),
    async (prefix) =>
      (await walk(path.resolve(env().DATA_DIR, "assets", prefix))).map((f) => path.relative(path.resolve(env().DATA_DIR, "assets"), f)),
  ],
  [
    "s3",
    () => s3.storage(),
    async (prefix) =>
      ((await s3Client().send(new ListObjectsV2Command({ Bucket: s3.bucket, Prefix: prefix }))).Contents ?? []).map((o) => o.Key!),
  ],
];

async function read(storage: ObjectStorage, key: string) {
  const obj = await storage.get(key);
  const chunks: Buffer[] = [];
  for await (const c of obj!.body) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

/** The owner deletes the asset (rows and objects) through `storage` while a copy is in flight. */
async function deleteThrough(storage: ObjectStorage, row: typeof assets.$inferSelect) {
  setStorage(storage);
  try {
    await deleteAssetRows(await getDb(), [row]);
  } finally {
    setStorage(undefined);
  }
}

describe.each(drivers)("re-hosting on %s storage", (_driver, makeStorage, objects) => {
  let storage: ObjectStorage;
  let userId: string;
  beforeAll(async () => {
    storage = makeStorage();
    userId = (await createUser()).id;
  });

  const options = (generationId: string, extra: Partial<RehostOptions> = {}): RehostOptions => ({
    userId,
    generationId,
    falRequestId: `fal-${generationId}`,
    storage,
    net,
    ...extra,
  });

  test("a result with 3 images ends as 3 stored objects and 3 Asset rows; a second run changes nothing", async () => {
    const gen = randomUUID();
    pngs.forEach((png, i) => cdn.file(`/${gen}/${i}.png`, png, "image/png"));
    const provider = {
      images: pngs.map((png, i) => ({ url: cdn.url(`/${gen}/${i}.png`), width: 16, height: 16, content_type: "image/png" })),
      seed: 42,
      timings: { inference: 0.5 },
    };

    const first = await rehostResult(await getDb(), provider, options(gen));
    expect(first.mode).toBe("stored");
    expect(first.counts).toEqual({ found: 3, uploaded: 3, failed: 0 });
    expect(first.assets.map((a) => a.status)).toEqual(["stored", "stored", "stored"]);
    expect(first.output.seed).toBe(42);
    expect(first.output.timings).toEqual({ inference: 0.5 });
    first.output.images.forEach((img, i) => {
      const row = first.assets[i]!;
      expect(img).toEqual({ url: row.publicUrl, width: 16, height: 16, content_type: "image/png", file_size: pngs[i]!.length });
      expect(row).toMatchObject({
        userId,
        kind: "result",
        generationId: gen,
        falRequestId: `fal-${gen}`,
        sourceUrl: provider.images[i]!.url,
        contentType: "image/png",
        sizeBytes: pngs[i]!.length,
        s3Bucket: storage.bucket,
        error: null,
      });
      expect(row.s3Key).toBe(`r/${row.id.slice(0, 2)}/${row.id}.png`);
      expect(img.url).toBe(storage.publicUrl(row.s3Key));
    });
    expect(provider.images[0]!.url).toContain(cdn.origin); // the input is not mutated
    for (const [i, row] of first.assets.entries()) expect((await read(storage, row.s3Key)).equals(pngs[i]!)).toBe(true);

    const second = await rehostResult(await getDb(), provider, options(gen));
    expect(second.output).toEqual(first.output);
    expect(second.counts).toEqual({ found: 3, uploaded: 3, failed: 0 });
    const db = await getDb();
    expect(await db.select().from(assets).where(eq(assets.generationId, gen))).toHaveLength(3);
    const keys = first.assets.map((a) => a.s3Key).sort();
    expect((await objects("r/")).filter((k) => first.assets.some((a) => k.includes(a.id))).sort()).toEqual(keys);
    // Stored files are not fetched again.
    pngs.forEach((_, i) => expect(cdn.hits.get(`/${gen}/${i}.png`)).toBe(1));
  });

  test("two runs at once (webhook and polling fallback) still leave one row and one object per file", async () => {
    const gen = randomUUID();
    pngs.forEach((png, i) => cdn.file(`/${gen}/${i}.png`, png, "image/png"));
    const provider = { images: pngs.map((_, i) => ({ url: cdn.url(`/${gen}/${i}.png`) })) };
    const [a, b] = await Promise.all([
      rehostResult(await getDb(), provider, options(gen)),
      rehostResult(await getDb(), provider, options(gen)),
    ]);
    expect(a.output).toEqual(b.output);
    const db = await getDb();
    const rows = await db.select().from(assets).where(eq(assets.generationId, gen));
    expect(rows.map((r) => r.status)).toEqual(["stored", "stored", "stored"]);
    const ids = rows.map((r) => r.id);
    expect((await objects("r/")).filter((k) => ids.some((id) => k.includes(id)))).toHaveLength(3);
  });

  test("passthrough=1 returns the provider's URLs and copies nothing", async () => {
    const gen = randomUUID();
    const provider = { images: [{ url: cdn.url(`/${gen}/0.png`) }], video: { url: cdn.url(`/${gen}/v.mp4`) } };
    const res = await rehostResult(await getDb(), provider, options(gen, { passthrough: true }));
    expect(res).toEqual({ output: provider, assets: [], counts: { found: 2, uploaded: 0, failed: 0 }, mode: "passthrough" });
    expect(cdn.hits.get(`/${gen}/0.png`)).toBeUndefined();
    const db = await getDb();
    expect(await db.select().from(assets).where(eq(assets.generationId, gen))).toEqual([]);
  });

  test("each failure is recorded on its own asset; the others are stored", async () => {
    const gen = randomUUID();
    cdn.file(`/${gen}/ok.png`, pngs[0]!, "image/png");
    cdn.handle(`/${gen}/huge.mp4`, (_req, res) => {
      res.writeHead(200, { "content-type": "video/mp4", "content-length": String(5 * 1024 ** 3) });
      res.write(media.mp4());
    });
    cdn.redirect(`/${gen}/moved.png`, internal.url("/private.png"));
    cdn.file(`/${gen}/page.png`, "<!doctype html><html><body><script>alert(1)</script></body></html>", "image/png");
    cdn.file(`/${gen}/exe.png`, media.exe(), "image/png");
    const provider = {
      images: [
        { url: cdn.url(`/${gen}/ok.png`) },
        { url: cdn.url(`/${gen}/moved.png`) },
        { url: cdn.url(`/${gen}/page.png`) },
        { url: cdn.url(`/${gen}/exe.png`) },
        { url: cdn.url(`/${gen}/missing.png`) },
      ],
      video: { url: cdn.url(`/${gen}/huge.mp4`) },
      audio_url: internal.url("/private.png"),
    };
    const hitsBefore = internal.hits.get("/private.png") ?? 0;
    const res = await rehostResult(await getDb(), provider, options(gen));
    expect(res.counts).toEqual({ found: 7, uploaded: 1, failed: 6 });
    const errors = Object.fromEntries(res.assets.map((a) => [a.sourceUrl!.split("/").pop(), a.error?.split(":")[0] ?? a.status]));
    expect(errors).toEqual({
      "ok.png": "stored",
      "moved.png": "blocked_address",
      "page.png": "unsupported_media_type",
      "exe.png": "unsupported_media_type",
      "missing.png": "bad_status",
      "huge.mp4": "too_large",
      "private.png": "blocked_address",
    });
    expect(res.assets.filter((a) => a.status === "failed").every((a) => a.publicUrl === null)).toBe(true);
    // The service's own network never saw a request.
    expect(internal.hits.get("/private.png") ?? 0).toBe(hitsBefore);
    // Failed files keep their provider URL in the output.
    expect(res.output.images[1]!.url).toBe(provider.images[1]!.url);
    expect(res.output.video.url).toBe(provider.video.url);
    expect(res.output.images[0]!.url).toBe(res.assets[0]!.publicUrl);
    const ids = res.assets.map((a) => a.id);
    expect((await objects("r/")).filter((k) => ids.some((id) => k.includes(id)))).toHaveLength(1);
  });

  test("a retry stores a file that failed before, in the same row", async () => {
    const gen = randomUUID();
    const provider = { audio: { url: cdn.url(`/${gen}/late.wav`) } };
    const first = await rehostResult(await getDb(), provider, options(gen));
    expect(first.assets[0]).toMatchObject({ status: "failed", error: expect.stringMatching(/^bad_status: .*404/) });
    cdn.file(`/${gen}/late.wav`, media.wav(), "audio/wav");
    const second = await rehostResult(await getDb(), provider, options(gen));
    expect(second.assets).toHaveLength(1);
    expect(second.assets[0]).toMatchObject({ id: first.assets[0]!.id, status: "stored", error: null, contentType: "audio/wav" });
    expect(second.output.audio).toEqual({ url: second.assets[0]!.publicUrl, content_type: "audio/wav", file_size: media.wav().length });
    expect(second.counts).toEqual({ found: 1, uploaded: 1, failed: 0 });
  });

  test("an asset deleted while its copy is in flight stays deleted, and its object is removed", async () => {
    const gen = randomUUID();
    let release!: () => void;
    const hit = new Promise<void>((resolve) =>
      cdn.handle(`/${gen}/late.png`, (_req, res) => {
        release = () => res.writeHead(200, { "content-type": "image/png" }).end(pngs[0]);
        resolve();
      }),
    );
    const running = rehostResult(await getDb(), { image: { url: cdn.url(`/${gen}/late.png`) } }, options(gen));
    await hit;
    const db = await getDb();
    const [pending] = await db.select().from(assets).where(eq(assets.generationId, gen));
    expect(pending!.status).toBe("pending");
    // Claimed under the key its name suggests, which the bytes confirm: no key update follows.
    expect(pending!.s3Key).toBe(`r/${pending!.id.slice(0, 2)}/${pending!.id}.png`);
    await deleteThrough(storage, pending!);
    release();
    const res = await running;
    expect(res.assets[0]).toMatchObject({ id: pending!.id, status: "deleted" });
    expect(await storage.head(`r/${pending!.id.slice(0, 2)}/${pending!.id}.png`)).toBeNull();
  });

  test("a network file named as one type is stored as the type its bytes say", async () => {
    const gen = randomUUID();
    cdn.file(`/${gen}/mislabelled.png`, media.wav(), "image/png");
    const res = await rehostResult(await getDb(), { image: { url: cdn.url(`/${gen}/mislabelled.png`) } }, options(gen));
    const row = res.assets[0]!;
    expect(row).toMatchObject({ status: "stored", contentType: "audio/wav", s3Key: `r/${row.id.slice(0, 2)}/${row.id}.wav` });
    expect((await objects("r/")).filter((k) => k.includes(row.id))).toEqual([row.s3Key]);
  });

  /** The storage under test, spooling into a directory of its own and noting what it is given. */
  function watched(gen: string, before?: (key: string) => Promise<void>) {
    const puts: { key: string; source: ObjectSource }[] = [];
    const spoolDir = path.join(env().DATA_DIR, `spool-${gen}`);
    const wrapped: ObjectStorage = {
      ...storage,
      spoolDir,
      put: async (key, source, o) => {
        puts.push({ key, source });
        await before?.(key);
        return storage.put(key, source, o);
      },
    };
    return { storage: wrapped, puts, spoolDir };
  }

  /** The simulator's `readMedia`: its links are read in-process, anything else is not its own. */
  const simulator = (gen: string) => {
    const reads: string[] = [];
    const readMedia = async (url: string) => {
      const m = new RegExp(`^https://sim\\.test/${gen}/(\\d)\\.png$`).exec(url);
      if (!m) return null;
      reads.push(url);
      return { bytes: new Uint8Array(pngs[Number(m[1])]!), contentType: "image/png" };
    };
    return { reads, readMedia, url: (i: number) => `https://sim.test/${gen}/${i}.png` };
  };

  test("bytes in memory (readMedia, data: URLs) are stored straight from memory, no spool file; a retry leaves one row and one object each", async () => {
    const gen = randomUUID();
    const sim = simulator(gen);
    const w = watched(gen);
    const wav = media.wav(400);
    const provider = { images: [{ url: sim.url(0) }, { url: sim.url(1) }], audio_url: `data:audio/wav;base64,${wav.toString("base64")}` };
    const run = async () => rehostResult(await getDb(), provider, options(gen, { storage: w.storage, readMedia: sim.readMedia }));

    const first = await run();
    expect(first.counts).toEqual({ found: 3, uploaded: 3, failed: 0 });
    first.assets.forEach((row, i) => {
      const ext = i < 2 ? "png" : "wav";
      expect(row).toMatchObject({
        status: "stored",
        error: null,
        s3Key: `r/${row.id.slice(0, 2)}/${row.id}.${ext}`,
        contentType: i < 2 ? "image/png" : "audio/wav",
      });
    });
    expect(first.output.images[0]).toEqual({ url: first.assets[0]!.publicUrl, content_type: "image/png", file_size: pngs[0]!.length });
    // Each object was written once, from the bytes in memory, at the key its row was claimed with.
    expect(w.puts.map((p) => p.key).sort()).toEqual(first.assets.map((a) => a.s3Key).sort());
    expect(w.puts.every((p) => p.source instanceof Uint8Array)).toBe(true);
    await expect(stat(w.spoolDir)).rejects.toMatchObject({ code: "ENOENT" });
    expect((await read(storage, first.assets[1]!.s3Key)).equals(pngs[1]!)).toBe(true);
    expect((await read(storage, first.assets[2]!.s3Key)).equals(wav)).toBe(true);

    const second = await run();
    expect(second.output).toEqual(first.output);
    expect(second.counts).toEqual({ found: 3, uploaded: 3, failed: 0 });
    expect(second.assets).toEqual(first.assets);
    expect(w.puts).toHaveLength(3);
    const db = await getDb();
    expect(await db.select().from(assets).where(eq(assets.generationId, gen))).toHaveLength(3);
    const ids = first.assets.map((a) => a.id);
    expect((await objects("r/")).filter((k) => ids.some((id) => k.includes(id))).sort()).toEqual(first.assets.map((a) => a.s3Key).sort());
  });

  test("an in-memory file whose write failed is retried in the same row, under the key the row already had", async () => {
    const gen = randomUUID();
    const sim = simulator(gen);
    let broken = true;
    const w = watched(gen, async () => {
      if (broken) throw new Error("disk full");
    });
    const run = async () =>
      rehostResult(await getDb(), { image: { url: sim.url(2) } }, options(gen, { storage: w.storage, readMedia: sim.readMedia }));
    const first = await run();
    const row = first.assets[0]!;
    expect(first.counts).toEqual({ found: 1, uploaded: 0, failed: 1 });
    // The row knew its final key before the write was tried.
    expect(row).toMatchObject({
      status: "failed",
      error: "storage_error: disk full",
      publicUrl: null,
      s3Key: `r/${row.id.slice(0, 2)}/${row.id}.png`,
    });
    expect(first.output.image.url).toBe(sim.url(2));
    broken = false;
    const second = await run();
    expect(second.assets[0]).toMatchObject({ id: row.id, status: "stored", error: null, s3Key: row.s3Key });
    expect(second.counts).toEqual({ found: 1, uploaded: 1, failed: 0 });
    expect(w.puts.map((p) => p.key)).toEqual([row.s3Key, row.s3Key]);
    expect((await objects("r/")).filter((k) => k.includes(row.id))).toEqual([row.s3Key]);
  });

  test("a run whose write fails after a concurrent run stored the file leaves it stored", async () => {
    const gen = randomUUID();
    const sim = simulator(gen);
    let writing!: () => void;
    const slowWriteStarted = new Promise<void>((resolve) => (writing = resolve));
    let fail!: () => void;
    const failNow = new Promise<void>((resolve) => (fail = resolve));
    const slow = watched(gen, async () => {
      writing();
      await failNow;
      throw new Error("disk full");
    });
    const output = { image: { url: sim.url(1) } };
    // The slow run claims the row and is writing when the other run stores the same file.
    const slowRun = rehostResult(await getDb(), output, options(gen, { storage: slow.storage, readMedia: sim.readMedia }));
    await slowWriteStarted;
    const fast = await rehostResult(await getDb(), output, options(gen, { readMedia: sim.readMedia }));
    expect(fast.assets[0]).toMatchObject({ status: "stored" });
    fail();
    const late = await slowRun;
    expect(late.assets[0]).toMatchObject({ id: fast.assets[0]!.id, status: "stored" });
    const [row] = await (await getDb()).select().from(assets).where(eq(assets.id, fast.assets[0]!.id));
    expect(row).toMatchObject({ status: "stored", error: null, publicUrl: fast.assets[0]!.publicUrl });
  });

  test("in-memory bytes that are refused are recorded as failed, once, and a retry keeps the one row", async () => {
    const gen = randomUUID();
    const w = watched(gen);
    const provider = {
      images: [{ url: "data:image/png;base64," + Buffer.from("<!doctype html><script>alert(1)</script>").toString("base64") }],
      audio_url: `data:audio/wav;base64,${media.wav(4000).toString("base64")}`,
    };
    const run = async () => rehostResult(await getDb(), provider, options(gen, { storage: w.storage, maxBytes: 2048 }));
    const first = await run();
    expect(first.counts).toEqual({ found: 2, uploaded: 0, failed: 2 });
    expect(first.assets.map((a) => [a.status, a.error?.split(":")[0], a.publicUrl])).toEqual([
      ["failed", "unsupported_media_type", null],
      ["failed", "too_large", null],
    ]);
    expect(first.output).toEqual(provider);
    const second = await run();
    expect(second.assets.map((a) => a.id)).toEqual(first.assets.map((a) => a.id));
    expect(second.counts).toEqual(first.counts);
    const db = await getDb();
    expect(await db.select().from(assets).where(eq(assets.generationId, gen))).toHaveLength(2);
    expect(w.puts).toEqual([]);
  });

  test("an in-memory file deleted while it is written stays deleted and its object is removed; a retry writes nothing", async () => {
    const gen = randomUUID();
    const sim = simulator(gen);
    let release!: () => void;
    let writing!: () => void;
    const started = new Promise<void>((resolve) => (writing = resolve));
    const w = watched(gen, () => {
      writing();
      return new Promise<void>((resolve) => (release = resolve));
    });
    const run = async () =>
      rehostResult(await getDb(), { image: { url: sim.url(0) } }, options(gen, { storage: w.storage, readMedia: sim.readMedia }));
    const running = run();
    await started;
    const db = await getDb();
    const [pending] = await db.select().from(assets).where(eq(assets.generationId, gen));
    // Before the object is written, its row already names it.
    expect(pending).toMatchObject({ status: "pending", s3Key: `r/${pending!.id.slice(0, 2)}/${pending!.id}.png` });
    await deleteThrough(storage, pending!);
    release();
    const res = await running;
    expect(res.assets[0]).toMatchObject({ id: pending!.id, status: "deleted" });
    expect(res.counts).toEqual({ found: 1, uploaded: 0, failed: 0 });
    expect(await storage.head(pending!.s3Key)).toBeNull();

    const again = await run();
    expect(again.assets[0]).toMatchObject({ id: pending!.id, status: "deleted" });
    expect(w.puts).toHaveLength(1);
    expect(await storage.head(pending!.s3Key)).toBeNull();
    expect(await db.select().from(assets).where(eq(assets.generationId, gen))).toHaveLength(1);
  });

  test("deferred marks: the caller marks written files stored later; one deleted in between stays deleted and its object goes", async () => {
    const db = await getDb();
    const copy = async () => {
      const gen = randomUUID();
      const sim = simulator(gen);
      const written: WrittenAsset[] = [];
      const res = await rehostResult(
        db,
        { image: { url: sim.url(0) } },
        options(gen, { storage, readMedia: sim.readMedia, deferStored: (w) => (written.push(w), true) }),
      );
      const [row] = await db.select().from(assets).where(eq(assets.generationId, gen));
      return { res, written, row: row! };
    };
    const kept = await copy();
    const gone = await copy();
    // Written and answered as stored, the rows wait for the caller's mark.
    for (const { res, written, row } of [kept, gone]) {
      expect(res.counts).toEqual({ found: 1, uploaded: 1, failed: 0 });
      expect(res.output).toMatchObject({ image: { url: written[0]!.publicUrl } });
      expect(row).toMatchObject({ status: "pending", s3Key: written[0]!.key });
      expect(await storage.head(row.s3Key)).not.toBeNull();
    }
    await deleteThrough(storage, gone.row);
    await markWrittenStored(db, [...kept.written, ...gone.written], storage);
    const [keptRow] = await db.select().from(assets).where(eq(assets.id, kept.row.id));
    expect(keptRow).toMatchObject({
      status: "stored",
      contentType: "image/png",
      sizeBytes: kept.written[0]!.sizeBytes,
      publicUrl: kept.written[0]!.publicUrl,
    });
    const [goneRow] = await db.select().from(assets).where(eq(assets.id, gone.row.id));
    expect(goneRow).toMatchObject({ status: "deleted" });
    expect(await storage.head(gone.row.s3Key)).toBeNull();
    expect(await storage.head(kept.row.s3Key)).not.toBeNull();
  });

  test("a slow origin hits the per-file deadline", async () => {
    const gen = randomUUID();
    cdn.handle(`/${gen}/slow.png`, () => {});
    const res = await rehostResult(await getDb(), { image: { url: cdn.url(`/${gen}/slow.png`) } }, options(gen, { timeoutMs: 200 }));
    expect(res.assets[0]!.error).toMatch(/^timeout: /);
  });

  test("data URLs and bare *_url fields are re-hosted too; queue links are left alone", async () => {
    const gen = randomUUID();
    cdn.file(`/${gen}/clip.mp4`, media.mp4(), "video/mp4");
    const wav = media.wav(800);
    const provider = {
      audio_url: `data:audio/wav;base64,${wav.toString("base64")}`,
      video_url: cdn.url(`/${gen}/clip.mp4`),
      status_url: cdn.url(`/${gen}/status`),
    };
    const res = await rehostResult(await getDb(), provider, options(gen));
    expect(res.counts).toEqual({ found: 2, uploaded: 2, failed: 0 });
    expect(res.output.status_url).toBe(provider.status_url);
    expect(res.output.audio_url).toBe(res.assets[0]!.publicUrl);
    expect(res.assets[0]!.sourceUrl).toMatch(/^data:audio\/wav;sha256,[0-9a-f]{64}$/);
    expect((await read(storage, res.assets[0]!.s3Key)).equals(wav)).toBe(true);
    expect(res.assets[1]).toMatchObject({ contentType: "video/mp4", sourceUrl: provider.video_url });
  });
});

test("with storage disabled the result keeps its provider URLs", async () => {
  const provider = { images: [{ url: cdn.url("/x.png") }] };
  const res = await rehostResult(await getDb(), provider, {
    userId: (await createUser()).id,
    generationId: randomUUID(),
    storage: null,
    net,
  });
  expect(res).toEqual({ output: provider, assets: [], counts: { found: 1, uploaded: 0, failed: 1 }, mode: "storage_disabled" });
});
