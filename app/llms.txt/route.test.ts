import { describe, expect, test } from "vitest";
import { POST as UPSERT } from "@/app/(gateway)/admin/models/route";
import { createActor } from "@/test/factories";
import { call } from "@/test/http";
import { GET } from "./route";

const llmsTxt = async () => (await call(GET, "/llms.txt")).text;

describe("GET /llms.txt", () => {
  test("an llms.txt index: title, summary, how to connect (MCP and both APIs), and every visible model linked to its own llms.txt", async () => {
    const res = await call(GET, "/llms.txt");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(res.headers.get("x-request-id")).toBeTruthy();
    const lines = res.text.split("\n");
    expect(lines[0]).toBe("# Generation Gateway");
    expect(lines[2]).toMatch(/^> Generate images, video and audio/);
    expect(res.text).toContain("## Connect");
    expect(res.text).toContain("- [MCP server](http://localhost:3000/mcp): Streamable HTTP");
    expect(res.text).toContain(
      "list_models, get_model_schema, estimate_cost, generate, get_request, cancel_request, upload_file, get_balance",
    );
    expect(res.text).toContain("- [OpenAPI document](http://localhost:3000/openapi.json)");
    expect(res.text).toContain("### Text to image");
    expect(res.text).toMatch(
      /^- \[FLUX\.1 \\\[dev\\\]\]\(http:\/\/localhost:3000\/catalog\/fal-ai\/flux\/dev\/llms\.txt\): `fal-ai\/flux\/dev`, 2\.25 ₽ per megapixel of output\. /m,
    );
  });

  test("generated from the catalog: a model an admin adds is listed at once; a hidden one never", async () => {
    const { session } = await createActor({ role: "admin" });
    expect(await llmsTxt()).not.toContain("fal-ai/flux-pro/v1`");
    const created = await call(UPSERT, "/admin/models", {
      session,
      body: {
        modelId: "acme/new-painter",
        displayName: "New Painter",
        category: "text-to-image",
        description: "Paints. Well.",
        priceRub: "1.5",
        priceUnit: "image",
        visible: true,
        modelLab: "Acme",
      },
    });
    expect(created.status).toBe(201);
    expect(await llmsTxt()).toContain(
      "- [New Painter](http://localhost:3000/catalog/acme/new-painter/llms.txt): `acme/new-painter`, 1.5 ₽ per image. Paints.",
    );
    await call(UPSERT, "/admin/models", { session, body: { modelId: "acme/new-painter", visible: false } });
    expect(await llmsTxt()).not.toContain("acme/new-painter");
  });
});
