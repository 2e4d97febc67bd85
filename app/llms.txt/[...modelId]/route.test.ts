import { describe, expect, test } from "vitest";
import { call } from "@/test/http";
import { GET } from "./route";

const get = (modelId: string) => call(GET, `/llms.txt/${modelId}`, { params: { modelId: modelId.split("/") } });

describe("GET /catalog/{modelId}/llms.txt", () => {
  test("what the model does, its price and unit, its compact input with defaults, and one call on each surface and through MCP", async () => {
    const res = await get("fal-ai/flux/dev");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    const text = res.text;
    expect(text.split("\n")[0]).toBe("# FLUX.1 [dev]");
    expect(text).toContain("- Model id: `fal-ai/flux/dev`");
    expect(text).toContain("- Price: 2.25 ₽ per megapixel of output.");
    expect(text).toContain("Required: `prompt`.");
    expect(text).toContain("| parameter | type | default | allowed | description |");
    expect(text).toMatch(/^\| `prompt` \(required\) \| string \| {2}\| {2}\| The prompt/m);
    expect(text).toMatch(/^\| `image_size` \| string\\\|object \| `square_hd` \| `square_hd`, `square`/m);
    expect(text).toMatch(/^\| `num_images` \| integer \| `1` \| 1 to 4 \|/m);
    expect(text).toContain('curl -X POST "http://localhost:3000/api/v1/generate"');
    expect(text).toContain('curl -X POST "http://localhost:3000/run/fal-ai/flux/dev"');
    expect(text).toContain("connect a client to http://localhost:3000/mcp");
    expect(text).toContain(
      JSON.stringify({ model: "fal-ai/flux/dev", input: { prompt: "a lighthouse on a cliff at dawn, oil painting" } }, null, 2),
    );
  });

  test("a model needing a file gets a sample URL in its example", async () => {
    const models = ["fal-ai/flux/dev/image-to-image"];
    const texts = await Promise.all(models.map(async (m) => (await get(m)).text));
    expect(texts.some((t) => t.includes('"image_url": "https://example.com/photo.png"'))).toBe(true);
  });

  test("a hidden or unknown model is 404 unknown_model, as everywhere else", async () => {
    for (const modelId of ["fal-ai/flux-pro/v1", "no/such-model"]) {
      const res = await get(modelId);
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ success: false, error: "unknown_model" });
    }
  });
});
