import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { installUnknownMethodGuard } from "./unknown-method";

// The production build answers these through the same guard: e2e/unknown-methods.spec.ts.
let server: Server;
let port: number;
let uninstall: () => void;
const reached: string[] = [];

beforeAll(async () => {
  uninstall = await installUnknownMethodGuard();
  server = createServer((req, res) => {
    reached.push(req.method!);
    res.end("routed");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  uninstall();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

/** One raw HTTP/1.1 exchange: what the socket received until the server closed it or answered. */
function raw(
  requestLine: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    let text = "";
    socket.on("data", (chunk) => {
      text += chunk.toString("latin1");
      const end = text.indexOf("\r\n\r\n");
      if (end < 0) return;
      const [statusLine, ...lines] = text.slice(0, end).split("\r\n");
      const head = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(":")).toLowerCase(), l.slice(l.indexOf(":") + 1).trim()]));
      const length = Number(head["content-length"] ?? 0);
      if (text.length - end - 4 < length) return;
      socket.destroy();
      resolve({ status: Number(statusLine!.split(" ")[1]), headers: head, body: text.slice(end + 4, end + 4 + length) });
    });
    socket.on("error", reject);
    socket.write(
      `${requestLine}\r\nHost: 127.0.0.1\r\n${Object.entries(headers)
        .map(([k, v]) => `${k}: ${v}\r\n`)
        .join("")}\r\n`,
    );
  });
}

describe("validation", () => {
  test.each([
    ["TRACE", "TRACE / HTTP/1.1"],
    ["TRACK", "TRACK /models HTTP/1.1"],
    ["PROPFIND", "PROPFIND /me HTTP/1.1"],
    ["MKCOL", "MKCOL /files/x HTTP/1.1"],
    ["CONNECT", "CONNECT 127.0.0.1:443 HTTP/1.1"],
    ["FOO", "FOO /api/inngest HTTP/1.1"],
  ])("%s is 405 method_not_allowed in the envelope, with Allow and X-Request-ID", async (method, line) => {
    const res = await raw(line);
    expect(res.status).toBe(405);
    expect(res.headers["content-type"]).toContain("application/json");
    expect(res.headers["allow"]).toBe("DELETE, GET, HEAD, OPTIONS, PATCH, POST, PUT");
    expect(res.headers["x-request-id"]).toMatch(/^[\w.:-]{8,128}$/);
    expect(JSON.parse(res.body)).toEqual({
      success: false,
      error: "method_not_allowed",
      message: `${method} is not accepted here; use DELETE, GET, HEAD, OPTIONS, PATCH, POST, PUT`,
    });
    expect(reached).not.toContain(method);
  });

  test("a well-formed client X-Request-ID is kept, as on every other answer", async () => {
    const res = await raw("TRACE / HTTP/1.1", { "X-Request-ID": "client-chosen-id-1" });
    expect(res.headers["x-request-id"]).toBe("client-chosen-id-1");
  });
});

describe("success", () => {
  test.each(["GET", "HEAD", "OPTIONS", "POST", "PUT", "DELETE", "PATCH"])("%s still reaches the app", async (method) => {
    const res = await raw(
      `${method} / HTTP/1.1`,
      method === "GET" || method === "HEAD" || method === "OPTIONS" ? {} : { "Content-Length": "0" },
    );
    expect(res.status).toBe(200);
    expect(reached).toContain(method);
  });
});
