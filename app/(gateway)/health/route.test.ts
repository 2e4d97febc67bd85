import { afterEach, describe, expect, test } from "vitest";
import { getDbHandle, setDbHandle, type Db } from "@/db/client";
import { call } from "@/test/http";
import { GET } from "./route";

describe("GET /health", () => {
  test("200 with db ok after a real round trip", async () => {
    const res = await call(GET, "/health");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: "ok", db: "ok", uptime: expect.any(Number), timestamp: expect.any(String) });
    expect(res.headers.get("x-request-id")).toBeTruthy();
  });

  describe("when the database is down", () => {
    let restore: (() => void) | undefined;
    afterEach(() => restore?.());

    test("503 with db down", async () => {
      const real = await getDbHandle();
      const broken = { execute: () => Promise.reject(new Error("connection refused")) } as unknown as Db;
      setDbHandle({ ...real, db: broken });
      restore = () => setDbHandle(real);
      const res = await call(GET, "/health");
      expect(res.status).toBe(503);
      expect(res.body).toMatchObject({ status: "degraded", db: "down" });
    });
  });
});
