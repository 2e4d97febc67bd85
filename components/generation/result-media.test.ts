import { describe, expect, test } from "vitest";
import { assetMedia, mediaKindOf, resultView } from "./result-media";

describe("a generation result shown inline", () => {
  test("images: each entry of `images` is an image with its size; seed and timings stay as JSON", () => {
    const view = resultView({
      request_id: "r1",
      images: [
        { url: "/files/a.jpg", content_type: "image/jpeg", width: 1024, height: 768, file_size: 1234 },
        { url: "/files/b.jpg", content_type: "image/jpeg", width: 1024, height: 768, file_size: 1200 },
      ],
      seed: 42,
      timings: { inference: 0.5 },
      has_nsfw_concepts: [false, false],
    });
    expect(view.media).toEqual([
      { kind: "image", url: "/files/a.jpg", field: "images[0]", contentType: "image/jpeg", width: 1024, height: 768, sizeBytes: 1234 },
      { kind: "image", url: "/files/b.jpg", field: "images[1]", contentType: "image/jpeg", width: 1024, height: 768, sizeBytes: 1200 },
    ]);
    expect(view.text).toBeNull();
    expect(view.json).toEqual({ seed: 42, timings: { inference: 0.5 }, has_nsfw_concepts: [false, false] });
  });

  test("video, audio and a 3D file are single objects; text is the transcript; vectors are JSON", () => {
    expect(resultView({ video: { url: "/files/v.mp4", content_type: "video/mp4" } }).media).toEqual([
      { kind: "video", url: "/files/v.mp4", field: "video", contentType: "video/mp4" },
    ]);
    expect(resultView({ audio: { url: "/files/s.wav", content_type: "audio/wav", duration: 2.5 } }).media).toEqual([
      { kind: "audio", url: "/files/s.wav", field: "audio", contentType: "audio/wav", durationSec: 2.5 },
    ]);
    expect(resultView({ model_mesh: { url: "/files/m.glb", content_type: "model/gltf-binary" } }).media[0]).toMatchObject({ kind: "file" });
    const stt = resultView({ text: "hello there", chunks: [{ text: "hello", timestamp: [0, 1] }] });
    expect(stt).toEqual({ media: [], text: "hello there", json: { chunks: [{ text: "hello", timestamp: [0, 1] }] } });
    expect(resultView({ embeddings: [{ index: 0, embedding: [0.1, 0.2] }] })).toEqual({
      media: [],
      text: null,
      json: { embeddings: [{ index: 0, embedding: [0.1, 0.2] }] },
    });
  });

  test("without a content type the kind comes from the field, then from the URL's extension", () => {
    expect(mediaKindOf(undefined, "images[0]", "https://x/y")).toBe("image");
    expect(mediaKindOf(null, "output", "https://cdn/clip.webm?sig=1")).toBe("video");
    expect(mediaKindOf("", "result", "/files/voice.mp3")).toBe("audio");
    expect(mediaKindOf("application/octet-stream", "video", "/v.mp4")).toBe("file");
    expect(mediaKindOf(undefined, "data", "/x.bin")).toBe("file");
  });

  test("a stored asset is shown by its content type; one without a public URL is not shown", () => {
    expect(assetMedia({ id: "as_1", publicUrl: "/files/u/a.png", contentType: "image/png", sizeBytes: 10 })).toEqual({
      kind: "image",
      url: "/files/u/a.png",
      field: "as_1",
      contentType: "image/png",
      sizeBytes: 10,
    });
    expect(assetMedia({ id: "as_2", publicUrl: null, contentType: "image/png", sizeBytes: null })).toBeNull();
  });
});
