import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { OutboundError } from "@/lib/net";
import { currentStorage, setStorage } from "@/lib/storage";
import { startMediaOrigin, type MediaOrigin } from "@/test/servers/media-origin";
import { startS3Server, type S3Server } from "@/test/servers/s3";
import { ownObjectKey, readInputUrl } from "./read-input-url";

let origin: MediaOrigin;
let s3: S3Server;
beforeAll(async () => {
  [origin, s3] = await Promise.all([startMediaOrigin("127.0.0.2"), startS3Server()]);
  origin.file("/in.png", "remote bytes", "image/png");
});
afterAll(async () => {
  await Promise.all([origin.close(), s3.close()]);
});
afterEach(() => setStorage(undefined));

const text = async (body: NodeJS.ReadableStream) => {
  const chunks: Buffer[] = [];
  for await (const c of body) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString();
};
const limits = { maxBytes: 1024, timeoutMs: 2000 };

describe("readInputUrl", () => {
  test("the service's own file is read from storage, though its URL is on loopback", async () => {
    const storage = currentStorage()!;
    await storage.put("u/ab/own.png", Buffer.from("own bytes"), { contentType: "image/png" });
    const url = storage.publicUrl("u/ab/own.png");
    expect(url).toBe("http://localhost:3000/files/u/ab/own.png");
    const file = await readInputUrl(url, limits);
    expect(file).toMatchObject({ source: "storage", contentType: "image/png" });
    expect(await text(file.body)).toBe("own bytes");
  });

  test("a deleted own file, or one over the limit, is refused", async () => {
    const storage = currentStorage()!;
    await expect(readInputUrl(storage.publicUrl("u/ab/gone.png"), limits)).rejects.toMatchObject({ code: "bad_status", status: 404 });
    await storage.put("u/ab/big.png", Buffer.alloc(2048), { contentType: "image/png" });
    await expect(readInputUrl(storage.publicUrl("u/ab/big.png"), limits)).rejects.toMatchObject({ code: "too_large" });
  });

  test("other URLs go through the outbound rules", async () => {
    const remote = await readInputUrl(origin.url("/in.png"), { ...limits, net: { policy: { allow: ["127.0.0.2/32"] } } });
    expect(remote.source).toBe("remote");
    expect(await text(remote.body)).toBe("remote bytes");
    await expect(readInputUrl("http://127.0.0.1:9/x.png", limits)).rejects.toBeInstanceOf(OutboundError);
    await expect(readInputUrl("http://localhost:3000/elsewhere.png", limits)).rejects.toMatchObject({ code: "blocked_address" });
  });

  test("a signed S3 provider URL maps back to its key", async () => {
    const storage = s3.storage();
    setStorage(storage);
    await storage.put("u/cd/signed.mp3", Buffer.from("mp3"), { contentType: "audio/mpeg" });
    const { url } = await storage.providerUrl("u/cd/signed.mp3", 3600);
    expect(ownObjectKey(url, storage)).toBe("u/cd/signed.mp3");
    expect(ownObjectKey("https://elsewhere.example/u/cd/signed.mp3", storage)).toBeNull();
    const file = await readInputUrl(url, limits);
    expect(file.source).toBe("storage");
    expect(await text(file.body)).toBe("mp3");
  });

  test("with display URLs on a CDN (S3_PUBLIC_URL), a signed provider URL on the bucket is still the service's own file", async () => {
    // The bucket is on loopback here, as a private S3 endpoint would be: fetching the signed URL
    // over the network would be refused, so it must be read from storage.
    const storage = s3.storage({ publicUrl: "https://cdn.example.com/media" });
    setStorage(storage);
    await storage.put("u/ef/cdn.png", Buffer.from("cdn"), { contentType: "image/png" });
    const { url } = await storage.providerUrl("u/ef/cdn.png", 3600);
    expect(url.startsWith("https://cdn.example.com/")).toBe(false);
    expect(ownObjectKey(url, storage)).toBe("u/ef/cdn.png");
    expect(ownObjectKey("https://cdn.example.com/media/u/ef/cdn.png", storage)).toBe("u/ef/cdn.png");
    expect(ownObjectKey("https://cdn.example.com/other/u/ef/cdn.png", storage)).toBeNull();
    const file = await readInputUrl(url, limits);
    expect(file.source).toBe("storage");
    expect(await text(file.body)).toBe("cdn");
  });
});
