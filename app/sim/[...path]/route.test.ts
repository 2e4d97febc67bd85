import sharp from "sharp";
import { describe, expect, test } from "vitest";
import { signedMediaUrl, type MediaSpec } from "@/simulators/local-provider/media-url";
import { localProvider } from "@/lib/provider/registry";
import { call } from "@/test/http";
import { GET, HEAD } from "./route";

const inADay = () => Math.floor(Date.now() / 1000) + 86_400;
const image: MediaSpec = { kind: "image", seed: "00112233445566ff", width: 320, height: 200, index: 0, format: "png" };

/** The route as Next.js calls it: the path after /sim as catch-all params. */
function get(url: string, options: { headers?: Record<string, string>; method?: string } = {}) {
  const u = new URL(url);
  const params = { path: u.pathname.split("/").slice(2) };
  return call(options.method === "HEAD" ? HEAD : GET, u.pathname + u.search, { params, ...options });
}

describe("success", () => {
  test("a result's media link serves the same bytes re-hosting reads in-process", async () => {
    const { providerRequestId } = await localProvider().submit({
      endpointId: "fal-ai/flux/dev",
      input: { prompt: "served", image_size: "square", output_format: "png" },
      requestId: "r",
    });
    const result = await localProvider().result({ endpointId: "fal-ai/flux/dev", providerRequestId });
    const url = (result as any).output.images[0].url as string;
    const res = await get(url);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/png");
    expect(res.headers.get("x-request-id")).toBeTruthy();
    expect(res.headers.get("cache-control")).toContain("immutable");
    const bytes = new Uint8Array(await res.response.arrayBuffer());
    expect(Number(res.headers.get("content-length"))).toBe(bytes.byteLength);
    expect(Buffer.compare(bytes, (await localProvider().fetchMedia(url))!.bytes)).toBe(0);
    expect(await sharp(bytes).metadata()).toMatchObject({ format: "png", width: 512, height: 512 });
  });

  test("range requests are answered with 206 so players can seek; HEAD sends no body", async () => {
    const url = signedMediaUrl({ kind: "video", seed: "0011223344556677", width: 320, height: 180, durationMs: 3000 }, inADay());
    const whole = await get(url);
    const size = Number(whole.headers.get("content-length"));
    const part = await get(url, { headers: { range: "bytes=0-99" } });
    expect(part.status).toBe(206);
    expect(part.headers.get("content-range")).toBe(`bytes 0-99/${size}`);
    expect((await part.response.arrayBuffer()).byteLength).toBe(100);
    const tail = await get(url, { headers: { range: "bytes=-10" } });
    expect(tail.headers.get("content-range")).toBe(`bytes ${size - 10}-${size - 1}/${size}`);
    expect((await get(url, { headers: { range: `bytes=${size}-` } })).status).toBe(416);
    const head = await get(url, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers.get("content-type")).toBe("video/mp4");
    expect(head.text).toBe("");
  });
});

describe("validation", () => {
  test.each([
    ["a tampered path", () => signedMediaUrl(image, inADay()).replace("320x200", "4000x4000")],
    ["a forged signature", () => signedMediaUrl(image, inADay()).replace(/sig=[0-9a-f]{4}/, "sig=0000")],
    ["a stretched expiry", () => signedMediaUrl(image, inADay()).replace(/exp=\d+/, `exp=${inADay() + 1}`)],
    ["an expired link", () => signedMediaUrl(image, Math.floor(Date.now() / 1000) - 1)],
    ["no signature", () => signedMediaUrl(image, inADay()).split("?")[0]!],
    ["a size beyond the limits", () => signedMediaUrl({ ...image, width: 5000 }, inADay())],
    ["an unknown kind", () => "http://localhost:3000/sim/other/00112233445566ff.bin?exp=1&sig=00"],
  ])("%s is 404, like any missing file", async (_name, make) => {
    const res = await get(make());
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ error: "not_found" });
    expect(res.headers.get("x-request-id")).toBeTruthy();
  });
});

describe("documentation", () => {
  test("the media route is in the OpenAPI document", async () => {
    const { buildOpenApiDocument } = await import("@/lib/site/openapi/document");
    expect(buildOpenApiDocument().paths?.["/sim/{mediaPath}"]?.get?.operationId).toBe("getSimulatedMedia");
  });
});
