import { describe, expect, test } from "vitest";
import { call } from "@/test/http";
import { jobsMode } from "@/lib/jobs/mode";
import { GET, POST, PUT } from "./route";

// Embedded mode (no INNGEST_* set): the route is signed with a key that exists only in this
// process, so nothing from outside can run, inspect or sync the app's functions.
describe("auth", () => {
  test("the suite runs the embedded executor", () => {
    expect(jobsMode()).toEqual({ kind: "embedded" });
  });

  test.each([
    ["POST", POST, "/api/inngest?fnId=generation-gateway-prune-job-history&stepId=step", { event: {}, steps: {}, ctx: { run_id: "r" } }],
    ["PUT", PUT, "/api/inngest", { url: "http://attacker.example/api/inngest" }],
    ["GET", GET, "/api/inngest", undefined],
  ] as const)("an unsigned %s is refused with 401 and carries X-Request-ID", async (method, handler, path, body) => {
    const res = await call(handler, path, { method, body, headers: { "x-inngest-sync-kind": "in_band" } });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ message: "Unauthorized" });
    expect(res.headers.get("x-request-id")).toBeTruthy();
  });

  test.each([
    ["POST", POST],
    ["PUT", PUT],
  ] as const)("a %s with a malformed JSON body is 400 invalid_json in the envelope, not a bare 500", async (method, handler) => {
    // A current (if wrong) signature, so the body is read at all.
    const signature = `t=${Math.round(Date.now() / 1000)}&s=${"0".repeat(64)}`;
    const res = await call(handler, "/api/inngest?fnId=generation-gateway-prune-job-history&stepId=step", {
      method,
      body: "{",
      headers: { "content-type": "application/json", "x-inngest-signature": signature },
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ success: false, error: "invalid_json", message: expect.any(String) });
    expect(res.headers.get("x-request-id")).toBeTruthy();
  });

  test("an out-of-band PUT (no sync kind) cannot make the app call Inngest Cloud either", async () => {
    const res = await call(PUT, "/api/inngest", { method: "PUT" });
    expect(res.status).toBe(401);
  });
});
