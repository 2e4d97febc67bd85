import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { GET as health } from "@/app/(gateway)/health/route";
import { GET as listModels } from "@/app/(gateway)/models/route";
import { DELETE as deleteKey } from "@/app/(gateway)/me/keys/[id]/route";
import { GET as me } from "@/app/(gateway)/me/route";
import { createActor } from "@/test/factories";
import { withEnv } from "@/test/env";
import { call } from "@/test/http";

/** Everything the process writes to stdout and stderr while `fn` runs, as lines. */
let written: string[] = [];
beforeEach(() => {
  written = [];
  for (const stream of [process.stdout, process.stderr]) {
    vi.spyOn(stream, "write").mockImplementation((chunk: string | Uint8Array) => {
      written.push(...String(chunk).split("\n").filter(Boolean));
      return true;
    });
  }
});
afterEach(() => vi.restoreAllMocks());

const requestLines = () => written.map((line) => JSON.parse(line)).filter((entry) => entry.msg === "request");

describe("success", () => {
  test("a keyed request writes one JSON line: ids, route, status and duration, never the key", async () => {
    const { user, key, apiKey } = await createActor();
    const res = await withEnv({ LOG_LEVEL: "info" }, () => call(me, "/me?token=query-secret", { key }));
    expect(res.status).toBe(200);
    expect(requestLines()).toEqual([
      {
        level: "info",
        time: expect.any(String),
        msg: "request",
        requestId: res.headers.get("x-request-id"),
        method: "GET",
        route: "/me",
        status: 200,
        durationMs: expect.any(Number),
        userId: user.id,
        apiKeyId: apiKey.id,
      },
    ]);
    const all = written.join("\n");
    expect(all).not.toContain(key);
    expect(all).not.toContain(apiKey.hash);
    expect(all).not.toMatch(/authorization|bearer/i);
    expect(all).not.toContain("query-secret");
  });

  test("a dynamic route is logged by its template, and a refused request by its status", async () => {
    const { user, key } = await createActor();
    const foreign = "key_not_mine_0123456789";
    const res = await withEnv({ LOG_LEVEL: "info" }, () =>
      call(deleteKey, `/me/keys/${foreign}`, { method: "DELETE", key, params: { id: foreign } }),
    );
    expect(res.status).toBe(404);
    expect(requestLines()).toMatchObject([{ method: "DELETE", route: "/me/keys/{id}", status: 404, userId: user.id }]);
    expect(written.join("\n")).not.toContain(foreign);
  });

  test("a wrong key is logged as 401 with no user, and the key it sent appears nowhere", async () => {
    const bogus = "gw_live_thisisnotarealkey0123456789abcdef";
    const res = await withEnv({ LOG_LEVEL: "info" }, () => call(me, "/me", { key: bogus }));
    expect(res.status).toBe(401);
    expect(requestLines()).toMatchObject([{ route: "/me", status: 401, userId: null, apiKeyId: null }]);
    expect(written.join("\n")).not.toContain(bogus);
  });
});

describe("settings", () => {
  test("REQUEST_LOG=off writes no request line", async () => {
    await withEnv({ LOG_LEVEL: "info", REQUEST_LOG: "off" }, () => call(listModels, "/models"));
    expect(requestLines()).toEqual([]);
  });

  test("LOG_LEVEL above info writes no request line", async () => {
    await withEnv({ LOG_LEVEL: "warn" }, () => call(listModels, "/models"));
    expect(requestLines()).toEqual([]);
  });

  test("health probes are logged at debug only", async () => {
    await withEnv({ LOG_LEVEL: "info" }, () => call(health, "/health"));
    expect(requestLines()).toEqual([]);
    await withEnv({ LOG_LEVEL: "debug" }, () => call(health, "/health"));
    expect(requestLines()).toMatchObject([{ level: "debug", route: "/health", method: "GET", userId: null }]);
  });
});
