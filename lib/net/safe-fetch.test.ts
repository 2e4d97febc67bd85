import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startMediaOrigin, type MediaOrigin } from "@/test/servers/media-origin";
import { checkOutboundUrl } from "./check-url";
import { OutboundError } from "./errors";
import type { Resolver } from "./lookup";
import { safeFetch } from "./safe-fetch";

// The "public" origin lives on 127.0.0.2 and is allowed by name; 127.0.0.1 stands for the
// service's own network and must stay unreachable.
let origin: MediaOrigin;
let internal: MediaOrigin;
const policy = { allow: ["127.0.0.2/32"] };

beforeAll(async () => {
  origin = await startMediaOrigin("127.0.0.2");
  internal = await startMediaOrigin("127.0.0.1");
  internal.file("/secret", "internal data", "text/plain");
  origin.file("/hello", "hello world", "text/plain");
});

afterAll(async () => {
  await origin.close();
  await internal.close();
});

async function failure(promise: Promise<unknown>): Promise<OutboundError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(OutboundError);
  return err as OutboundError;
}

describe("success", () => {
  test("fetches an allowed origin and reports the final URL", async () => {
    const res = await safeFetch(origin.url("/hello"), { policy });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe("hello world");
    expect(res.url).toBe(origin.url("/hello"));
  });

  test("follows relative redirects within the limit, re-checking each hop", async () => {
    origin.redirect("/r1", "/r2");
    origin.redirect("/r2", origin.url("/hello"), 307);
    const res = await safeFetch(origin.url("/r1"), { policy, maxRedirects: 2 });
    expect(res.redirects).toBe(2);
    expect(await res.text()).toBe("hello world");
  });

  test("manual redirects return the 3xx as it is", async () => {
    origin.redirect("/away", "http://127.0.0.1/");
    const res = await safeFetch(origin.url("/away"), { policy, redirect: "manual" });
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe("http://127.0.0.1/");
    res.discard();
  });

  test("sends a POST body, and drops credentials when a redirect changes origin", async () => {
    let seen: { method?: string; body?: string; auth?: string } = {};
    origin.handle("/echo", (req, res) => {
      let body = "";
      req.on("data", (c) => (body += c));
      req.on("end", () => {
        seen = { method: req.method, body, auth: req.headers.authorization };
        res.writeHead(200).end("ok");
      });
    });
    const res = await safeFetch(origin.url("/echo"), { policy, method: "POST", body: '{"a":1}', headers: { authorization: "Bearer x" } });
    expect(await res.text()).toBe("ok");
    expect(seen).toEqual({ method: "POST", body: '{"a":1}', auth: "Bearer x" });

    const other = await startMediaOrigin("127.0.0.2");
    try {
      other.redirect("/hop", origin.url("/echo"), 307);
      await (await safeFetch(other.url("/hop"), { policy, method: "POST", body: "b", headers: { authorization: "Bearer x" } })).text();
      expect(seen).toEqual({ method: "POST", body: "b", auth: undefined });
    } finally {
      await other.close();
    }
  });

  test("ALLOW_PRIVATE_URLS-style policy reaches loopback (development only)", async () => {
    const res = await safeFetch(internal.url("/secret"), { policy: { allowPrivate: true } });
    expect(await res.text()).toBe("internal data");
  });
});

describe("address safety", () => {
  test.each([
    ["a loopback literal", () => internal.url("/secret")],
    ["localhost by name", () => `http://localhost:${internal.port}/secret`],
    ["an IPv4-mapped IPv6 literal", () => `http://[::ffff:127.0.0.1]:${internal.port}/secret`],
    ["the same in hex", () => `http://[::ffff:7f00:1]:${internal.port}/secret`],
    ["IPv6 loopback", () => `http://[::1]:${internal.port}/secret`],
    ["the cloud metadata address", () => "http://169.254.169.254/latest/meta-data/"],
    ["a private range", () => "http://10.0.0.1/"],
  ])("%s is refused before connecting", async (_, url) => {
    const before = internal.hits.get("/secret") ?? 0;
    const err = await failure(safeFetch(url(), { policy, timeoutMs: 2000 }));
    expect(err.code).toBe("blocked_address");
    expect(internal.hits.get("/secret") ?? 0).toBe(before);
  });

  test("a redirect to 127.0.0.1 is refused, and the internal server never sees the request", async () => {
    origin.redirect("/to-internal", internal.url("/secret"));
    const before = internal.hits.get("/secret") ?? 0;
    const err = await failure(safeFetch(origin.url("/to-internal"), { policy }));
    expect(err.code).toBe("blocked_address");
    expect(internal.hits.get("/secret") ?? 0).toBe(before);
  });

  test("a name resolving to both private and public addresses connects only to the checked one", async () => {
    const calls: string[] = [];
    const resolver: Resolver = (host, cb) => {
      calls.push(host);
      cb(null, [
        { address: "127.0.0.1", family: 4 },
        { address: "127.0.0.2", family: 4 },
      ]);
    };
    internal.file("/hello", "internal", "text/plain");
    const res = await safeFetch(`http://cdn.example.test:${origin.port}/hello`, { policy, resolver });
    expect(await res.text()).toBe("hello world");
    expect(calls).toEqual(["cdn.example.test"]);
  });

  test("a rebinding resolver gets one question per connection: the answer that was checked is the one used", async () => {
    let n = 0;
    const resolver: Resolver = (_host, cb) => cb(null, [{ address: n++ === 0 ? "127.0.0.2" : "127.0.0.1", family: 4 }]);
    const res = await safeFetch(`http://rebind.example.test:${origin.port}/hello`, { policy, resolver });
    expect(await res.text()).toBe("hello world");
    expect(n).toBe(1);
  });

  test("a name with only private addresses is refused", async () => {
    const resolver: Resolver = (_h, cb) =>
      cb(null, [
        { address: "10.0.0.7", family: 4 },
        { address: "fd00::7", family: 6 },
      ]);
    expect((await failure(safeFetch("http://intranet.example.test/", { policy, resolver }))).code).toBe("blocked_address");
  });

  test.each(["file:///etc/passwd", "ftp://example.com/x", "gopher://example.com", "not a url", "http://"])(
    "%s is not a fetchable URL",
    async (url) => {
      expect((await failure(safeFetch(url, { policy }))).code).toBe("invalid_url");
    },
  );

  test("checkOutboundUrl refuses private targets up front and accepts allowed ones", async () => {
    expect((await failure(checkOutboundUrl(`http://localhost:${internal.port}/`, { policy }))).code).toBe("blocked_address");
    expect((await failure(checkOutboundUrl("http://[fe80::1]/", { policy }))).code).toBe("blocked_address");
    expect((await checkOutboundUrl(origin.url("/x"), { policy })).host).toBe(`127.0.0.2:${origin.port}`);
  });
});

describe("limits", () => {
  test("a 5 GB Content-Length is refused without reading the body", async () => {
    let wrote = 0;
    origin.handle("/huge", (_req, res) => {
      res.writeHead(200, { "content-type": "video/mp4", "content-length": String(5 * 1024 ** 3) });
      const chunk = Buffer.alloc(64 * 1024);
      const pump = () => {
        while (wrote < 64 * 1024 * 1024 && res.write(chunk)) wrote += chunk.length;
      };
      res.on("drain", pump);
      pump();
    });
    const err = await failure(safeFetch(origin.url("/huge"), { policy, maxBytes: 100 * 1024 * 1024 }));
    expect(err.code).toBe("too_large");
  });

  test("a body without Content-Length is cut off past maxBytes", async () => {
    origin.handle("/chunked", (_req, res) => {
      res.writeHead(200, { "content-type": "image/png" });
      const chunk = Buffer.alloc(16 * 1024, 1);
      let n = 0;
      const pump = () => {
        while (n < 1000 && res.write(chunk)) n++;
        if (n >= 1000) res.end();
      };
      res.on("drain", pump);
      pump();
    });
    const res = await safeFetch(origin.url("/chunked"), { policy, maxBytes: 100_000 });
    expect((await failure(res.bytes())).code).toBe("too_large");
  });

  test("too many redirects", async () => {
    origin.redirect("/loop", "/loop");
    expect((await failure(safeFetch(origin.url("/loop"), { policy, maxRedirects: 3 }))).code).toBe("too_many_redirects");
  });

  test("a server that never answers hits the deadline", async () => {
    origin.handle("/silent", () => {});
    expect((await failure(safeFetch(origin.url("/silent"), { policy, timeoutMs: 200 }))).code).toBe("timeout");
  });

  test("a body that stalls mid-way hits the same deadline", async () => {
    origin.handle("/stall", (_req, res) => {
      res.writeHead(200, { "content-type": "image/png", "content-length": "1000" });
      res.write(Buffer.alloc(10));
    });
    const res = await safeFetch(origin.url("/stall"), { policy, timeoutMs: 300 });
    expect((await failure(res.bytes())).code).toBe("timeout");
  });

  test("a refused connection is a network error", async () => {
    const closed = await startMediaOrigin("127.0.0.2");
    const url = closed.url("/x");
    await closed.close();
    expect((await failure(safeFetch(url, { policy }))).code).toBe("network");
  });
});
