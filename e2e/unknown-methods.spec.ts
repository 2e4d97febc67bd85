import { connect } from "node:net";
import { expect, test } from "@playwright/test";
import { baseURL } from "../playwright.config";

/**
 * Issue 19 item 6 on `next start`: methods Next cannot route (TRACE fails there with a bare 500
 * before any hook of ours runs; PROPFIND and the like get a bare 400 from app routes; CONNECT
 * drops the socket; an unknown token gets Node's bare 400) are answered 405 method_not_allowed in
 * the envelope, with Allow and X-Request-ID, on every kind of path (lib/http/unknown-method.ts).
 */
type Answer = { status: number; headers: Record<string, string>; body: string };

/** One raw HTTP/1.1 exchange (fetch and Playwright refuse to send TRACE or CONNECT). */
function raw(requestLine: string): Promise<Answer> {
  const url = new URL(baseURL);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname);
    let text = "";
    const finish = () => {
      const end = text.indexOf("\r\n\r\n");
      if (end < 0) return reject(new Error(`no answer to ${requestLine}: ${JSON.stringify(text.slice(0, 200))}`));
      const [statusLine, ...lines] = text.slice(0, end).split("\r\n");
      const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(":")).toLowerCase(), l.slice(l.indexOf(":") + 1).trim()]));
      resolve({
        status: Number(statusLine!.split(" ")[1]),
        headers,
        body: text.slice(end + 4, end + 4 + Number(headers["content-length"] ?? 0)),
      });
      socket.destroy();
    };
    socket.on("data", (chunk) => {
      text += chunk.toString("latin1");
      const end = text.indexOf("\r\n\r\n");
      const length = end < 0 ? NaN : Number(/\r\ncontent-length:\s*(\d+)/i.exec(text.slice(0, end))?.[1] ?? 0);
      if (end >= 0 && text.length - end - 4 >= length) finish();
    });
    socket.on("end", finish);
    socket.on("error", reject);
    socket.write(`${requestLine}\r\nHost: ${url.host}\r\nConnection: close\r\n\r\n`);
  });
}

const ALLOW = "DELETE, GET, HEAD, OPTIONS, PATCH, POST, PUT";

test("TRACE, PROPFIND, CONNECT and unknown methods are 405 in the envelope with Allow and X-Request-ID, on pages and the API", async () => {
  const paths = [
    "/",
    "/dashboard",
    "/models",
    "/me/keys",
    "/api/v1/generate",
    "/api/inngest",
    "/api/auth/session",
    "/webhooks/provider",
    "/files/x",
    "/nope",
  ];
  const lines = [
    ...paths.flatMap((p) => [`TRACE ${p} HTTP/1.1`, `PROPFIND ${p} HTTP/1.1`, `FOO ${p} HTTP/1.1`]),
    `CONNECT ${new URL(baseURL).host} HTTP/1.1`,
  ];
  for (const line of lines) {
    const res = await raw(line);
    const method = line.split(" ")[0];
    expect(res.status, line).toBe(405);
    expect(res.headers["x-request-id"], line).toBeTruthy();
    expect(res.headers["allow"], line).toBe(ALLOW);
    expect(JSON.parse(res.body), line).toEqual({
      success: false,
      error: "method_not_allowed",
      message: `${method} is not accepted here; use ${ALLOW}`,
    });
  }
});

test("the methods Next routes still reach it", async () => {
  expect((await raw("GET /health HTTP/1.1")).status).toBe(200);
  expect((await raw("HEAD /health HTTP/1.1")).status).toBe(200);
});
