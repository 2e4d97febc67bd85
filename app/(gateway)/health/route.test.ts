import { writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { getDbHandle, setDbHandle, type Db } from "@/db/client";
import { env, resetEnv } from "@/lib/core/env";
import { startTestExecutor } from "@/lib/jobs/testing";
import { forgetStorageProbe } from "@/lib/server/health";
import { resetOutcomes } from "@/lib/observability/outcomes";
import { yookassaRequest } from "@/lib/billing/payments/yookassa/http";
import { breakerFor, resetBreakers } from "@/lib/provider/circuit-breaker";
import { currentStorage, setStorage } from "@/lib/storage";
import { clearStorageFailure } from "@/lib/storage/failures";
import { startS3Server, type S3Server } from "@/test/servers/s3";
import { withEnv } from "@/test/env";
import { call } from "@/test/http";
import { GET as FILE_GET } from "../../files/[...key]/route";
import { GET } from "./route";

const HEALTHY_PARTS = {
  database: { status: "ok" },
  storage: { status: "ok", driver: "local" },
  jobs: { status: "ok", mode: "embedded" },
  providers: { status: "ok", breakers: [{ provider: "local", state: "closed", retryAfterMs: 0 }], cooldowns: [] },
  payments: { status: "ok", provider: "local" },
};

/** /health waits this long for a check (lib/server/health.ts CHECK_TIMEOUT_MS). */
const CHECK_TIMEOUT_MS = 2000;

/**
 * A machine too busy to run the event loop: `request` starts (its checks are sent), then the
 * thread is blocked past the checks' timeout, as a loaded server at start-up is.
 */
async function busyDuring<T>(request: Promise<T>): Promise<T> {
  await new Promise((resolve) => setImmediate(resolve));
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, CHECK_TIMEOUT_MS + 500);
  return request;
}

/** Runs `fn` with another DATA_DIR, then puts the test file's back (withEnv would leave it unset: ./data). */
async function withDataDir<T>(dir: string, fn: () => Promise<T>): Promise<T> {
  const before = process.env.DATA_DIR;
  process.env.DATA_DIR = dir;
  resetEnv();
  try {
    return await fn();
  } finally {
    process.env.DATA_DIR = before;
    resetEnv();
  }
}

let jobs: Awaited<ReturnType<typeof startTestExecutor>>;
beforeAll(async () => {
  jobs = await startTestExecutor();
});
afterAll(() => jobs.uninstall());
afterEach(() => {
  resetBreakers();
  resetOutcomes();
});

describe("GET /health", () => {
  test("200 ok with every part up, after a real database round trip; uptime counts from process start", async () => {
    const before = process.uptime();
    const res = await call(GET, "/health");
    const after = process.uptime();
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: "ok", db: "ok", uptime: expect.any(Number), timestamp: expect.any(String), parts: HEALTHY_PARTS });
    // Not the time since the first /health call (this is the first): the process's age.
    expect(res.body.uptime).toBeGreaterThanOrEqual(Math.floor(before));
    expect(res.body.uptime).toBeLessThanOrEqual(Math.ceil(after));
    expect(res.headers.get("x-request-id")).toBeTruthy();
    expect(res.headers.get("cache-control")).toBe("no-store, no-transform");
  });

  test("a provider circuit forced open is 200 degraded, naming the breaker", async () => {
    const breaker = breakerFor("local");
    for (let i = 0; i < env().PROVIDER_BREAKER_FAILURES; i++) breaker.recordFailure();
    const res = await call(GET, "/health");
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: "degraded", db: "ok" });
    expect(res.body.parts.providers).toEqual({
      status: "down",
      breakers: [{ provider: "local", state: "open", retryAfterMs: expect.any(Number) }],
      cooldowns: [],
    });
    expect(res.body.parts.providers.breakers[0].retryAfterMs).toBeGreaterThan(0);
    expect(res.body.parts.database).toEqual({ status: "ok" });
  });

  test("storage switched off on purpose is disabled, not a fault", async () => {
    await withEnv({ STORAGE_DRIVER: "disabled" }, async () => {
      const res = await call(GET, "/health");
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ status: "ok", parts: { storage: { status: "disabled", driver: "disabled" } } });
    });
  });

  test("local storage is up before its directory exists, and down where it cannot be made", async () => {
    const dataDir = env().DATA_DIR;
    await withDataDir(path.join(dataDir, "not-made-yet", "data"), async () => {
      expect((await call(GET, "/health")).body.parts.storage).toEqual({ status: "ok", driver: "local" });
    });
    const file = path.join(dataDir, "a-file");
    await writeFile(file, "");
    await withDataDir(path.join(file, "data"), async () => {
      const res = await call(GET, "/health");
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        status: "degraded",
        parts: { storage: { status: "down", driver: "local", reason: "unreachable" } },
      });
      expect(res.text).not.toContain(file);
    });
  });

  test("a request for a name no storage can hold is the caller's 404: storage stays up", async () => {
    await currentStorage()!.put("r/ab/present.png", new Uint8Array([1]), { contentType: "image/png" });
    for (const key of ["a".repeat(300), `r/ab/${"a".repeat(300)}.png`]) {
      expect((await call(FILE_GET, `/files/${key}`, { params: { key: key.split("/") } })).status).toBe(404);
    }
    const res = await call(GET, "/health");
    expect(res.body).toMatchObject({ status: "ok", parts: { storage: { status: "ok", driver: "local" } } });
  });

  test("a probe a busy server answers late is not a failure: ok meanwhile, its answer after", async () => {
    forgetStorageProbe();
    const res = await busyDuring(call(GET, "/health"));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: "ok", parts: { storage: { status: "ok", driver: "local" } } });
    expect((await call(GET, "/health")).body.parts.storage).toEqual({ status: "ok", driver: "local" });
  });

  describe("on S3", () => {
    let s3: S3Server;
    beforeAll(async () => {
      s3 = await startS3Server();
    });
    afterAll(() => s3.close());
    afterEach(() => {
      setStorage(undefined);
      clearStorageFailure();
    });

    test("a reachable bucket is up", async () => {
      await withEnv(s3.env, async () => {
        setStorage(undefined);
        expect((await call(GET, "/health")).body.parts.storage).toEqual({ status: "ok", driver: "s3" });
      });
    });

    test("a probe a busy server answers late is not a failure: ok meanwhile, its answer after", async () => {
      await withEnv(s3.env, async () => {
        setStorage(undefined);
        forgetStorageProbe();
        const res = await busyDuring(call(GET, "/health"));
        expect(res.status).toBe(200);
        expect(res.body).toMatchObject({ status: "ok", parts: { storage: { status: "ok", driver: "s3" } } });
        expect((await call(GET, "/health")).body.parts.storage).toEqual({ status: "ok", driver: "s3" });
      });
    });

    test("a store that cannot be reached is down, found by the probe before any upload", async () => {
      await withEnv({ ...s3.env, S3_ENDPOINT: "http://127.0.0.1:1" }, async () => {
        setStorage(undefined);
        const res = await call(GET, "/health");
        expect(res.status).toBe(200);
        expect(res.body).toMatchObject({ status: "degraded", parts: { storage: { status: "down", driver: "s3", reason: "unreachable" } } });
      });
    });

    test("a failed operation keeps storage down with its kind until an operation succeeds", async () => {
      await withEnv({ ...s3.env, S3_BUCKET: "gone" }, async () => {
        setStorage(undefined);
        await expect(
          currentStorage()!.put("health/x", new Uint8Array([1]), { contentType: "application/octet-stream" }),
        ).rejects.toMatchObject({
          code: "storage_unavailable",
        });
        const res = await call(GET, "/health");
        expect(res.status).toBe(200);
        expect(res.body.status).toBe("degraded");
        expect(res.body.parts.storage).toEqual({ status: "down", driver: "s3", reason: "bucket_missing", since: expect.any(String) });
      });
    });
  });

  test("the payment provider whose last call failed is down, with a fixed reason", async () => {
    await withEnv({ PAYMENT_PROVIDER: "yookassa", YOOKASSA_SHOP_ID: "123456", YOOKASSA_SECRET_KEY: "test_secret_key_123" }, async () => {
      expect((await call(GET, "/health")).body.parts.payments).toEqual({ status: "ok", provider: "yookassa" });
      // Nothing listens on port 1 of loopback: a real call that cannot connect.
      const config = {
        apiUrl: "http://127.0.0.1:1/v3",
        shopId: "123456",
        secretKey: "test_secret_key_123",
        timeoutMs: 2000,
        maxRetries: 0,
        baseDelayMs: 1,
      };
      await expect(yookassaRequest(config, { method: "GET", path: "/payments/x" })).rejects.toThrow(/unreachable/);
      const res = await call(GET, "/health");
      expect(res.status).toBe(200);
      expect(res.body.status).toBe("degraded");
      expect(res.body.parts.payments).toEqual({ status: "down", provider: "yookassa", reason: "unreachable", since: expect.any(String) });
      expect(res.text).not.toContain("test_secret_key_123");
    });
  });

  test("without a running job executor, jobs are down and the service degraded", async () => {
    jobs.uninstall();
    try {
      const res = await call(GET, "/health");
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ status: "degraded", parts: { jobs: { status: "down", mode: "embedded", reason: "not_running" } } });
    } finally {
      jobs = await startTestExecutor();
    }
  });

  describe("when the database is down", () => {
    let restore: (() => void) | undefined;
    afterEach(() => restore?.());

    test("503 degraded with db down (the other parts still reported)", async () => {
      const real = await getDbHandle();
      const broken = { execute: () => Promise.reject(new Error("connection refused")) } as unknown as Db;
      setDbHandle({ ...real, db: broken });
      restore = () => setDbHandle(real);
      const res = await call(GET, "/health");
      expect(res.status).toBe(503);
      expect(res.body).toEqual({
        status: "degraded",
        db: "down",
        uptime: expect.any(Number),
        timestamp: expect.any(String),
        parts: { ...HEALTHY_PARTS, database: { status: "down", reason: "unreachable" } },
      });
    });
  });
});
