import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { POST as UPLOAD } from "@/app/(gateway)/me/uploads/route";
import { POST as QUEUE } from "@/app/(gateway)/queue/[...path]/route";
import { POST as GENERATE } from "@/app/api/v1/generate/route";
import { ManualClock } from "@/lib/jobs/clock";
import { startTestExecutor } from "@/lib/jobs/testing";
import { withEnv } from "@/test/env";
import { balanceOf, fundedActor, ledgerOf, pathOf } from "@/test/generation";
import { call } from "@/test/http";
import * as media from "@/test/media";

/**
 * Issue 19 item 6: media inputs by URL that no one may fetch. `image_url: "file:///etc/passwd"`,
 * a loopback, private or cloud-metadata address: accepted and charged before, although neither the
 * provider nor the service would ever fetch them. Now refused as 400 invalid_body naming the field,
 * before the reserve, by the rules completion callbacks follow (lib/generation/input-urls.ts);
 * the service's own uploaded files, on a loopback APP_URL here, still pass.
 */
const IMG2IMG = "fal-ai/flux/dev/image-to-image";
const clock = new ManualClock();
let jobs: Awaited<ReturnType<typeof startTestExecutor>>;
beforeAll(async () => {
  jobs = await startTestExecutor({ clock });
});
afterAll(() => jobs.uninstall());

const queue = (key: string, input: Record<string, unknown>) =>
  call(QUEUE, `/queue/${IMG2IMG}`, { params: pathOf(IMG2IMG), body: input, key });

describe("validation", () => {
  test.each([
    ["file:///etc/passwd", "Only http and https URLs are fetched, not file:"],
    ["http://169.254.169.254/latest/meta-data/", "169.254.169.254 is a private or reserved address"],
    ["http://127.0.0.1:3000/admin/stats", "127.0.0.1 is a private or reserved address"],
    ["http://[::1]/x.png", "::1 is a private or reserved address"],
    ["http://10.1.2.3/x.png", "10.1.2.3 is a private or reserved address"],
    ["http://localhost/x.png", "localhost resolves only to private or reserved addresses"],
  ])("image_url %s is 400 invalid_body naming the field, and nothing is charged", async (url, message) => {
    const { user, key } = await fundedActor(100);
    const res = await queue(key, { prompt: "restyle", image_url: url });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      success: false,
      error: "invalid_body",
      message: `image_url: ${message}`,
      issues: [{ path: ["image_url"], message }],
    });
    expect(await ledgerOf(user.id)).toEqual([]);
    expect(await balanceOf(user.id)).toBe(1_000_000);
  });

  test("every refused URL of an input is listed, lists and nested objects included", async () => {
    const { key } = await fundedActor(100);
    const res = await queue(key, {
      prompt: "restyle",
      image_url: "https://93.184.215.14/ok.png",
      reference_image_urls: ["https://93.184.215.14/ok.png", "file:///tmp/x.png"],
      mask: { url: "http://192.168.1.1/mask.png" },
    });
    expect(res.status).toBe(400);
    expect(res.body.issues).toEqual([
      { path: ["reference_image_urls", "1"], message: "Only http and https URLs are fetched, not file:" },
      { path: ["mask", "url"], message: "192.168.1.1 is a private or reserved address" },
    ]);
  });

  test("the skill surface refuses them the same way, as INVALID_PARAMS", async () => {
    const { user, key } = await fundedActor(100);
    const res = await call(GENERATE, "/api/v1/generate", {
      key,
      body: { model: "fal-ai/wizper", input: { audio_url: "file:///etc/shadow" } },
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: "INVALID_PARAMS", details: { reason: "invalid_body", issues: [{ path: ["audio_url"] }] } });
    expect(await ledgerOf(user.id)).toEqual([]);
  });
});

describe("success", () => {
  test("the service's own uploaded file (on a loopback APP_URL) is accepted as image_url", async () => {
    const { user, key } = await fundedActor(100);
    const { body, contentType } = media.multipart(await media.image("png", 16));
    const uploaded = await call(UPLOAD, "/me/uploads", { key, body, headers: { "content-type": contentType } });
    expect(uploaded.status).toBe(201);
    expect(uploaded.body.url).toMatch(/^http:\/\/localhost:3000\/files\//);
    const res = await queue(key, { prompt: "restyle", image_url: uploaded.body.url });
    expect(res.status).toBe(200);
    expect((await ledgerOf(user.id)).map((t) => t.type)).toEqual(["generation_reserve"]);
  });

  test("a public address and a data: URL are accepted", async () => {
    const { key } = await fundedActor(100);
    const png = (await media.image("png", 16)).toString("base64");
    expect((await queue(key, { prompt: "restyle", image_url: "https://93.184.215.14/photo.png" })).status).toBe(200);
    expect((await queue(key, { prompt: "restyle", image_url: `data:image/png;base64,${png}` })).status).toBe(200);
  });

  test("ALLOW_PRIVATE_URLS (development) lets loopback through, as for callbacks", async () => {
    const { key } = await fundedActor(100);
    const res = await withEnv({ ALLOW_PRIVATE_URLS: "true" }, () =>
      queue(key, { prompt: "restyle", image_url: "http://127.0.0.1:8080/x.png" }),
    );
    expect(res.status).toBe(200);
  });
});
