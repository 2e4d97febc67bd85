import { describe, expect, test } from "vitest";
import { DomainError } from "@/lib/core/errors";
import * as media from "@/test/media";
import { classifyUpload } from "./classify";
import { decodeJsonUpload } from "./json-upload";

async function outcome(bytes: Uint8Array, declared: string | null) {
  try {
    return await classifyUpload(bytes, declared);
  } catch (err) {
    return (err as DomainError).code;
  }
}

describe("classifyUpload", () => {
  test.each([
    ["mp4 bytes declared audio/mp4 (audio-only mp4)", () => media.mp4(), "audio/mp4", "audio/mp4"],
    ["m4a bytes declared video/mp4 (same container)", () => media.m4a(), "video/mp4", "video/mp4"],
    ["m4a bytes with no declaration", () => media.m4a(), null, "audio/mp4"],
    ["webm declared audio/webm", () => media.webm(), "audio/webm", "audio/webm"],
    ["webm declared video/webm", () => media.webm(), "video/webm", "unsupported_media_type"],
    ["heic bytes declared image/heif", () => media.heic(), "image/heif", "image/heif"],
    ["ogg opus declared audio/opus", () => media.ogg("opus"), "audio/opus", "audio/ogg"],
    ["ogg vorbis declared application/ogg", () => media.ogg(), "application/ogg", "audio/ogg"],
    ["flac declared audio/x-flac", () => media.flac(), "audio/x-flac", "audio/flac"],
    ["mp3 declared with parameters", () => media.mp3(), "Audio/MPEG; charset=binary", "audio/mpeg"],
    ["wav declared image/png", () => media.wav(), "image/png", "unsupported_media_type"],
    ["exe declared application/x-msdownload", () => media.exe(), "application/x-msdownload", "unsupported_media_type"],
    ["unknown bytes declared audio/flac", () => Buffer.from("not flac at all"), "audio/flac", "invalid_body"],
    ["unknown bytes declared nothing", () => Buffer.from("mystery"), null, "unsupported_media_type"],
    ["nothing at all", () => Buffer.alloc(0), "audio/wav", "invalid_body"],
  ])("%s → %s", async (_, bytes, declared, expected) => {
    expect(await outcome(bytes(), declared)).toBe(expected);
  });

  test("a PNG declared image/jpeg names both types in the message", async () => {
    await expect(classifyUpload(await media.image("png"), "image/jpeg")).rejects.toThrow(
      "The file's bytes are image/png, but it was sent as image/jpeg",
    );
  });
});

describe("decodeJsonUpload", () => {
  const max = 1024;
  test("base64, base64url and data URLs decode to the same bytes", () => {
    const bytes = Buffer.from([0, 1, 2, 250, 251, 252, 253, 254, 255]);
    expect(decodeJsonUpload({ data: bytes.toString("base64"), mime_type: "x/y" }, max).bytes.equals(bytes)).toBe(true);
    expect(decodeJsonUpload({ data: bytes.toString("base64url"), mime_type: "x/y" }, max).bytes.equals(bytes)).toBe(true);
    const d = decodeJsonUpload({ data: `data:audio/wav;base64,${bytes.toString("base64")}` }, max);
    expect(d.bytes.equals(bytes)).toBe(true);
    expect(d.declaredType).toBe("audio/wav");
  });

  test("a percent-encoded data URL decodes escapes to bytes", () => {
    const d = decodeJsonUpload({ data: "data:text/plain,RIFF%00%FF%20ok" }, max);
    expect([...d.bytes]).toEqual([0x52, 0x49, 0x46, 0x46, 0x00, 0xff, 0x20, 0x6f, 0x6b]);
    expect(d.declaredType).toBe("text/plain");
  });

  test("the decoded size is checked before decoding", () => {
    expect(() => decodeJsonUpload({ data: Buffer.alloc(max + 1).toString("base64"), mime_type: "x/y" }, max)).toThrow(
      expect.objectContaining({ code: "asset_too_large" }),
    );
    expect(decodeJsonUpload({ data: Buffer.alloc(max).toString("base64"), mime_type: "x/y" }, max).bytes.length).toBe(max);
  });
});
