import { ApiError, createFalClient, ValidationError } from "@fal-ai/client";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { resetEnv } from "@/lib/core/env";
import { ManualClock } from "@/lib/jobs/clock";
import { startTestExecutor } from "@/lib/jobs/testing";
import { balanceOf, fundedActor, jobRow, ledgerOf } from "@/test/generation";
import { BASE_URL } from "@/test/http";
import * as proxy from "@/app/api/fal/proxy/route";
import { PUT as UPLOAD_PUT } from "@/app/fal/storage/upload/[token]/route";

/**
 * The stock @fal-ai/client (1.10.1, unmodified) with the one-line change of docs/fal.md, its
 * `fetch` delivering each request to the route handlers as Next.js would (no network): the
 * protocol as the real client speaks and reads it, through the HTTP surface and the database.
 * The same client runs against the production build in e2e/fal-client.spec.ts.
 */
const FLUX = "fal-ai/flux/dev";
const FLUX_SQUARE_HD = 23_593;
const clock = new ManualClock();
let jobs: Awaited<ReturnType<typeof startTestExecutor>>;

beforeAll(async () => {
  process.env.FAL_STATUS_HOLD_MS = "0";
  resetEnv();
  jobs = await startTestExecutor({ clock });
});
afterAll(() => {
  jobs.uninstall();
  delete process.env.FAL_STATUS_HOLD_MS;
  resetEnv();
});

const routes = proxy as unknown as Record<string, (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>>;

/** fetch → the route handler the URL names: the proxy, or the upload URL the proxy handed out. */
const viaRoutes = (async (input: RequestInfo | URL, init?: RequestInit) => {
  const req = new Request(input, init);
  const url = new URL(req.url);
  if (url.origin === BASE_URL && url.pathname === "/api/fal/proxy") return routes[req.method]!(req, { params: Promise.resolve({}) });
  const upload = /^\/fal\/storage\/upload\/([^/]+)$/.exec(url.pathname);
  if (url.origin === BASE_URL && upload) return UPLOAD_PUT(req, { params: Promise.resolve({ token: upload[1]! }) });
  throw new Error(`the client called ${req.method} ${req.url}, not the gateway`);
}) as typeof fetch;

const clientFor = (key: string) =>
  createFalClient({
    credentials: key,
    proxyUrl: { url: `${BASE_URL}/api/fal/proxy`, when: "always" },
    fetch: viaRoutes,
    suppressLocalCredentialsWarning: true,
  });

/** Runs `work` while draining the job queue, as the executor would in the background. */
async function whileDraining<T>(work: Promise<T>): Promise<T> {
  let settled = false;
  const done = work.finally(() => (settled = true));
  while (!settled) {
    await jobs.drain();
    await new Promise((r) => setTimeout(r, 50));
  }
  return done;
}

describe("success", () => {
  test("fal.run: the output and requestId; the job is billed once", async () => {
    const { user, key } = await fundedActor(100);
    const res = await clientFor(key).run(FLUX, { input: { prompt: "stock client", seed: 8 } });
    expect(res.data).toMatchObject({ seed: 8, images: [{ width: 1024 }] });
    expect(await jobRow(res.requestId)).toMatchObject({ surface: "fal", status: "completed" });
    expect(await ledgerOf(user.id)).toEqual([{ type: "generation_reserve", amount: -FLUX_SQUARE_HD, generationId: res.requestId }]);
  });

  test("fal.subscribe (polling) and queue.submit/status/result", async () => {
    const { key } = await fundedActor(100);
    const fal = clientFor(key);
    const seen: string[] = [];
    const res = await whileDraining(
      fal.subscribe(FLUX, { input: { prompt: "subscribed" }, logs: true, pollInterval: 20, onQueueUpdate: (u) => seen.push(u.status) }),
    );
    expect(res.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.data).toMatchObject({ images: [{ width: 1024 }] });
    expect(seen.at(-1)).toBe("COMPLETED");

    const { request_id: id } = await fal.queue.submit(FLUX, { input: { prompt: "submitted" }, priority: "low", hint: "x" });
    const early = await fal.queue.result(FLUX, { requestId: id }).catch((e: unknown) => e);
    expect(early).toBeInstanceOf(ApiError);
    expect((early as ApiError<unknown>).status).toBe(400);
    await jobs.drain();
    expect((await fal.queue.status(FLUX, { requestId: id, logs: true })).status).toBe("COMPLETED");
    const result = await fal.queue.result(FLUX, { requestId: id });
    expect(result).toMatchObject({ requestId: id, data: { images: [{ width: 1024 }] } });
  });

  test("fal.subscribe (streaming) and fal.stream", async () => {
    const { key } = await fundedActor(100);
    const fal = clientFor(key);
    const res = await whileDraining(fal.subscribe(FLUX, { input: { prompt: "streamed status" }, mode: "streaming" }));
    expect(res.data).toMatchObject({ images: [{ width: 1024 }] });
    const stream = await fal.stream(FLUX, { input: { prompt: "streamed output", seed: 6 } });
    expect(await stream.done()).toMatchObject({ seed: 6 });
  });

  test("storage.upload → the URL works as a model input; a Blob in the input is uploaded on the way", async () => {
    const { key } = await fundedActor(100);
    const fal = clientFor(key);
    const png = await sharp({ create: { width: 16, height: 16, channels: 3, background: "#123456" } })
      .png()
      .toBuffer();
    const url = await fal.storage.upload(new Blob([new Uint8Array(png)], { type: "image/png" }));
    expect(url).toMatch(/^http:\/\/localhost:3000\/files\/u\/.+\.png$/);
    const run = await fal.run("fal-ai/esrgan", { input: { image_url: url } });
    expect((await jobRow(run.requestId)).input).toMatchObject({ image_url: url });
    const viaBlob = await fal.run("fal-ai/esrgan", { input: { image_url: new Blob([new Uint8Array(png)], { type: "image/png" }) } });
    expect((await jobRow(viaBlob.requestId)).input.image_url).toMatch(/\/files\/u\/.+\.png$/);
  });
});

describe("validation", () => {
  test("a model failure and invalid input are fal's ValidationError; refunded / never charged", async () => {
    const { user, key } = await fundedActor(100);
    const fal = clientFor(key);
    const failed = (await fal.run(FLUX, { input: { prompt: "x [fail:generation]" } }).catch((e: unknown) => e)) as ValidationError;
    expect(failed).toBeInstanceOf(ValidationError);
    expect(failed.fieldErrors[0]).toMatchObject({ loc: ["body"], type: "generation_failed" });
    expect(failed.requestId).toMatch(/^[0-9a-f-]{36}$/);
    const invalid = (await fal.run(FLUX, { input: { prompt: 42 } as never }).catch((e: unknown) => e)) as ValidationError;
    expect(invalid).toBeInstanceOf(ValidationError);
    expect(invalid.getFieldErrors("prompt")).toHaveLength(1);
    expect(await balanceOf(user.id)).toBe(1_000_000);
  });
});

describe("auth", () => {
  test("an unknown key is the client's ApiError 401", async () => {
    const err = (await clientFor(`gw_live_${"b".repeat(40)}`)
      .run(FLUX, { input: { prompt: "x" } })
      .catch((e: unknown) => e)) as ApiError<unknown>;
    expect(err).toBeInstanceOf(ApiError);
    expect(err.status).toBe(401);
  });
});
