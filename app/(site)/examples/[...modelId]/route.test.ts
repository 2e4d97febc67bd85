import { eq } from "drizzle-orm";
import sharp from "sharp";
import { describe, expect, test } from "vitest";
import { getDb } from "@/db/client";
import { models } from "@/db/schema";
import { forgetCachedModels } from "@/lib/catalog/get";
import { BASE_URL } from "@/test/http";
import { GET } from "./route";

// Bytes, not text: the handler is called with a real Request and its Response read as it is.
const get = (modelId: string, query = "", headers: Record<string, string> = {}) =>
  GET(new Request(`${BASE_URL}/examples/${modelId}${query}`, { headers }), { params: Promise.resolve({ modelId: modelId.split("/") }) });

async function firstOf(category: string) {
  const [row] = await (await getDb()).select({ modelId: models.modelId }).from(models).where(eq(models.category, category)).limit(1);
  return row!.modelId;
}

describe("success", () => {
  test("an image model's example is a JPEG rendered by the simulator, the same bytes every time", async () => {
    const id = await firstOf("text-to-image");
    const res = await get(id);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/jpeg");
    expect(res.headers.get("cache-control")).toBe("public, max-age=86400");
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(await sharp(bytes).metadata()).toMatchObject({ format: "jpeg", width: 480, height: 300 });
    const again = await get(id);
    expect(Buffer.from(await again.arrayBuffer()).equals(bytes)).toBe(true);
    const cached = await get(id, "", { "if-none-match": res.headers.get("etag")! });
    expect(cached.status).toBe(304);
  });

  test("video, audio, speech-to-text, embedding and 3D models each get a picture; audio models also a WAV", async () => {
    for (const category of ["text-to-video", "text-to-speech", "speech-to-text", "embedding", "3d"]) {
      const id = await firstOf(category);
      const res = await get(id);
      expect(res.status, category).toBe(200);
      expect((await sharp(Buffer.from(await res.arrayBuffer())).metadata()).format, category).toBe("jpeg");
    }
    const speech = await get(await firstOf("text-to-speech"), "?as=audio");
    expect(speech.headers.get("content-type")).toBe("audio/wav");
    expect(
      Buffer.from(await speech.arrayBuffer())
        .subarray(0, 4)
        .toString("ascii"),
    ).toBe("RIFF");
  });
});

describe("validation", () => {
  test("an unknown or hidden model is 404, and so is the sound of a model that makes pictures", async () => {
    expect((await get("nobody/no-such-model")).status).toBe(404);
    const id = await firstOf("text-to-image");
    expect((await get(id, "?as=audio")).status).toBe(404);
    const db = await getDb();
    await db.update(models).set({ visible: false }).where(eq(models.modelId, id));
    forgetCachedModels();
    expect((await get(id)).status).toBe(404);
  });
});
