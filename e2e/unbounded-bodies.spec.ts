import { request as httpRequest } from "node:http";
import { expect, test } from "@playwright/test";
import { baseURL } from "../playwright.config";

/**
 * Issue 19 item 3 on `next start`: bodies sent without a key are refused from their headers or
 * cut off at their cap, and the 413 reaches a client that is still sending (the reader stops;
 * the server does not wait for the rest). The caps themselves are proven in-process by
 * test/security/unbounded-bodies.test.ts, which counts the bytes read.
 *
 * Paths proxy.ts sees (pages, server actions, Auth.js) are Next's: it waits for a whole body
 * before running the proxy, keeping at most `proxyClientMaxBodySize` (next.config.ts, 1 MiB).
 */
const MiB = 1024 * 1024;

type Answer = { status: number; requestId: string | undefined; body: string; sentBytes: number };

/**
 * A POST that keeps sending `totalBytes` (chunked, or only announced with `declaredBytes` and never
 * sent) and resolves with the answer as soon as it arrives, whatever is still unsent.
 */
function post(path: string, options: { headers?: Record<string, string>; totalBytes?: number; declaredBytes?: number }): Promise<Answer> {
  const url = new URL(path, baseURL);
  const headers = { ...options.headers, ...(options.declaredBytes ? { "content-length": String(options.declaredBytes) } : {}) };
  return new Promise((resolve, reject) => {
    let sentBytes = 0;
    let answered = false;
    const req = httpRequest({ host: url.hostname, port: url.port, path: url.pathname + url.search, method: "POST", headers }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (body += chunk));
      res.on("end", () => {
        answered = true;
        resolve({ status: res.statusCode ?? 0, requestId: res.headers["x-request-id"] as string | undefined, body, sentBytes });
        req.destroy();
      });
    });
    req.on("error", (err) => (answered ? undefined : reject(err)));
    if (options.declaredBytes) return void req.flushHeaders();
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    const pump = () => {
      while (!answered && sentBytes < (options.totalBytes ?? 0)) {
        sentBytes += chunk.length;
        if (!req.write(chunk)) return void req.once("drain", pump);
      }
      if (!answered) req.end();
    };
    pump();
  });
}

const now = () => Math.floor(Date.now() / 1000);
const localSigned = () => ({
  "content-type": "application/json",
  "webhook-id": "msg_e2e",
  "webhook-timestamp": String(now()),
  "webhook-signature": "v1,c2lnbmF0dXJl",
});
const tooLarge = (capBytes: number) => ({
  success: false,
  error: "payload_too_large",
  message: `Request body is larger than ${capBytes} bytes`,
});

test("an unsigned provider webhook is refused 401 without waiting for its 200 MB body", async () => {
  const res = await post("/webhooks/provider", { totalBytes: 200 * MiB });
  expect(res.status).toBe(401);
  expect(res.requestId).toBeTruthy();
  expect(JSON.parse(res.body)).toMatchObject({ error: "invalid_signature" });
  expect(res.sentBytes).toBeLessThan(200 * MiB);
});

test("a signed-looking chunked provider webhook gets 413 payload_too_large at 1 MiB while still sending", async () => {
  const res = await post("/webhooks/provider", { headers: localSigned(), totalBytes: 200 * MiB });
  expect(res.status).toBe(413);
  expect(res.requestId).toBeTruthy();
  expect(JSON.parse(res.body)).toEqual(tooLarge(MiB));
  expect(res.sentBytes).toBeLessThan(200 * MiB);
});

test("a declared Content-Length over the cap is answered 413 before any of the body is sent", async () => {
  for (const [path, headers, cap] of [
    ["/webhooks/provider", localSigned(), MiB],
    ["/api/inngest?fnId=x&stepId=step", { "x-inngest-signature": `t=${now()}&s=00` }, 5 * MiB],
  ] as const) {
    const res = await post(path, { headers, declaredBytes: 200 * MiB });
    expect(res.status, path).toBe(413);
    expect(res.requestId, path).toBeTruthy();
    expect(JSON.parse(res.body), path).toEqual(tooLarge(cap));
  }
});

test("an unsigned /api/inngest call is refused 401 without waiting for its 400 MB body", async () => {
  const res = await post("/api/inngest?fnId=x&stepId=step", { headers: { "content-type": "application/json" }, totalBytes: 400 * MiB });
  expect(res.status).toBe(401);
  expect(res.requestId).toBeTruthy();
  expect(res.sentBytes).toBeLessThan(400 * MiB);
});

test("a signed-looking /api/inngest call gets 413 at 5 MiB while still sending", async () => {
  const res = await post("/api/inngest?fnId=x&stepId=step", {
    headers: { "x-inngest-signature": `t=${now()}&s=00` },
    totalBytes: 400 * MiB,
  });
  expect(res.status).toBe(413);
  expect(JSON.parse(res.body)).toEqual(tooLarge(5 * MiB));
  expect(res.sentBytes).toBeLessThan(400 * MiB);
});
