import { describe, expect, test } from "vitest";
import { withEnv } from "@/test/env";
import { call } from "@/test/http";
import { POST as INNGEST_POST, PUT as INNGEST_PUT } from "@/app/api/inngest/route";
import { POST as PROVIDER_WEBHOOK } from "@/app/(gateway)/webhooks/provider/route";
import { POST as PAYMENT_NOTIFY } from "@/app/(gateway)/webhooks/yookassa/notify/route";

/**
 * Issue 19 item 3: unbounded unauthenticated bodies. A route that reads a body before it knows
 * who sent it refuses what its headers already condemn (no signature, a stale one, a declared
 * Content-Length over the cap) without reading a byte, and reads the rest through the one capped
 * reader (lib/http/request.ts `readBodyBytes`): 413 payload_too_large as soon as the cap is
 * passed, chunked bodies included. The bodies here are made on demand and count what the server
 * pulled, so "the reader stopped" is measured, not timed. The production build's behaviour (the
 * 413 reaches a client still sending) is e2e/unbounded-bodies.spec.ts.
 */
const KiB = 1024;
const MiB = 1024 * KiB;
const CHUNK = 64 * KiB;

/** A body of `totalBytes` spaces (JSON whitespace) produced only as it is read; `pulled` counts them. */
function meteredBody(totalBytes: number) {
  const chunk = new Uint8Array(CHUNK).fill(0x20);
  let pulled = 0;
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (pulled >= totalBytes) return controller.close();
        pulled += CHUNK;
        controller.enqueue(chunk.slice());
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, pulled: () => pulled };
}

const now = () => Math.floor(Date.now() / 1000);
/** Standard Webhooks headers that look current (the signature itself is not checked before reading). */
const localSigned = (at = now()) => ({
  "content-type": "application/json",
  "webhook-id": "msg_probe",
  "webhook-timestamp": String(at),
  "webhook-signature": "v1,c2lnbmF0dXJl",
});
const inngestSigned = (at = now()) => ({ "content-type": "application/json", "x-inngest-signature": `t=${at}&s=${"0".repeat(64)}` });
const tooLarge = (capBytes: number) => ({
  success: false,
  error: "payload_too_large",
  message: `Request body is larger than ${capBytes} bytes`,
});

describe("POST /webhooks/provider", () => {
  test("an unsigned body is refused 401 before a byte of it is read", async () => {
    const body = meteredBody(64 * MiB);
    const res = await call(PROVIDER_WEBHOOK, "/webhooks/provider", { body: body.stream });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ success: false, error: "invalid_signature", message: "Missing webhook signature headers" });
    expect(body.pulled()).toBe(0);
  });

  test("a signature older than 5 minutes is refused 401 unread", async () => {
    const body = meteredBody(64 * MiB);
    const res = await call(PROVIDER_WEBHOOK, "/webhooks/provider", { body: body.stream, headers: localSigned(now() - 600) });
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ error: "invalid_signature" });
    expect(body.pulled()).toBe(0);
  });

  test("a signed-looking chunked body (no Content-Length) is cut off at 1 MiB with 413 payload_too_large", async () => {
    const body = meteredBody(64 * MiB);
    const res = await call(PROVIDER_WEBHOOK, "/webhooks/provider", { body: body.stream, headers: localSigned() });
    expect(res.status).toBe(413);
    expect(res.body).toEqual(tooLarge(MiB));
    expect(res.headers.get("x-request-id")).toBeTruthy();
    expect(body.pulled()).toBeLessThanOrEqual(MiB + 2 * CHUNK);
  });

  test("a declared Content-Length over 1 MiB is refused 413 unread", async () => {
    const body = meteredBody(64 * MiB);
    const res = await call(PROVIDER_WEBHOOK, "/webhooks/provider", {
      body: body.stream,
      headers: { ...localSigned(), "content-length": String(200 * MiB) },
    });
    expect(res.status).toBe(413);
    expect(res.body).toEqual(tooLarge(MiB));
    expect(body.pulled()).toBe(0);
  });
});

describe("POST /webhooks/yookassa/notify", () => {
  test("a body past 1 MiB is 413 even where MAX_BODY_BYTES allows authenticated callers more", async () => {
    const body = meteredBody(64 * MiB);
    const res = await withEnv({ MAX_BODY_BYTES: String(16 * MiB) }, () =>
      call(PAYMENT_NOTIFY, "/webhooks/yookassa/notify", { body: body.stream, headers: { "content-type": "application/json" } }),
    );
    expect(res.status).toBe(413);
    expect(res.body).toEqual(tooLarge(MiB));
    expect(body.pulled()).toBeLessThanOrEqual(MiB + 2 * CHUNK);
  });
});

describe("/api/inngest", () => {
  const path = "/api/inngest?fnId=generation-gateway-prune-job-history&stepId=step";

  test("a call without X-Inngest-Signature gets the SDK's 401 before a byte of its body is read", async () => {
    const body = meteredBody(400 * MiB);
    const res = await call(INNGEST_POST, path, { body: body.stream, headers: { "content-type": "application/json" } });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ message: "Unauthorized" });
    expect(res.headers.get("x-request-id")).toBeTruthy();
    expect(body.pulled()).toBe(0);
  });

  test("a call signed more than 5 minutes ago is refused 401 unread", async () => {
    const body = meteredBody(400 * MiB);
    const res = await call(INNGEST_POST, path, { body: body.stream, headers: inngestSigned(now() - 600) });
    expect(res.status).toBe(401);
    expect(body.pulled()).toBe(0);
  });

  test("a signed-looking call is cut off at 5 MiB (an Inngest server sends at most 4) with 413", async () => {
    const body = meteredBody(400 * MiB);
    const res = await call(INNGEST_POST, path, { body: body.stream, headers: inngestSigned() });
    expect(res.status).toBe(413);
    expect(res.body).toEqual(tooLarge(5 * MiB));
    expect(res.headers.get("x-request-id")).toBeTruthy();
    expect(body.pulled()).toBeLessThanOrEqual(5 * MiB + 2 * CHUNK);
  });

  test("a declared Content-Length over 5 MiB is refused 413 unread", async () => {
    const body = meteredBody(400 * MiB);
    const res = await call(INNGEST_POST, path, { body: body.stream, headers: { ...inngestSigned(), "content-length": String(400 * MiB) } });
    expect(res.status).toBe(413);
    expect(body.pulled()).toBe(0);
  });

  test("a call of 4.5 MiB (within what a server may send) still reaches the SDK, which checks its signature", async () => {
    const json = JSON.stringify({ event: { name: "x", data: {} }, steps: {}, ctx: { run_id: "r" }, pad: "x".repeat(4.5 * MiB) });
    const res = await call(INNGEST_POST, path, { body: json, headers: inngestSigned() });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ message: "Unauthorized" });
  });

  test("a sync (PUT) body is cut off at 1 MiB with 413", async () => {
    const body = meteredBody(64 * MiB);
    const res = await call(INNGEST_PUT, "/api/inngest", { method: "PUT", body: body.stream, headers: inngestSigned() });
    expect(res.status).toBe(413);
    expect(res.body).toEqual(tooLarge(MiB));
    expect(body.pulled()).toBeLessThanOrEqual(MiB + 2 * CHUNK);
  });
});
