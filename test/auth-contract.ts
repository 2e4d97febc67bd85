import { describe, expect, test } from "vitest";
import type { AuthMode } from "@/lib/auth/resolve";
import type { RouteHandler } from "@/lib/http/handler";
import { createApiKey, createSession, createUser } from "./factories";
import { call, type CallOptions } from "./http";

type Prepared = Omit<CallOptions, "key" | "session" | "headers">;

/**
 * The auth rules every route must pass (unkey's runCommonRouteTests): no credentials, a malformed,
 * unknown, expired or disabled key → 401; a banned user → 403 with a key and with a session; and
 * by mode, an API key on a dashboard-only route → 403, a non-admin session on an admin route → 403.
 * `prepare` builds the request (params, body) for a fresh user, so ownership never hides the rule.
 */
export function runAuthContract(
  name: string,
  handler: RouteHandler,
  path: string,
  mode: Exclude<AuthMode, "none" | "optional">,
  prepare: (user: { id: string }) => Promise<Prepared> | Prepared = () => ({}),
) {
  const unauthorized = { success: false, error: "unauthorized", message: expect.any(String) };
  const forbidden = { success: false, error: "forbidden", message: expect.any(String) };
  const role = mode === "admin" ? "admin" : "user";

  describe(`auth contract: ${name}`, () => {
    test("no credentials, a malformed, unknown, expired or disabled key → 401 unauthorized", async () => {
      const user = await createUser({ role });
      const req = await prepare(user);
      const expired = await createApiKey(user, { expiresAt: new Date(Date.now() - 1000) });
      const disabled = await createApiKey(user, { enabled: false });
      const attempts: CallOptions[] = [
        {},
        { headers: { authorization: "Bearer nope" } },
        { headers: { authorization: `Bearer gw_live_${"x".repeat(40)}` } },
        { key: expired.key },
        { key: disabled.key },
      ];
      for (const extra of attempts) {
        const res = await call(handler, path, { ...req, ...extra });
        expect(res.status).toBe(401);
        expect(res.body).toEqual(unauthorized);
        expect(res.headers.get("x-request-id")).toBeTruthy();
      }
    });

    test("a banned user → 403 forbidden with a key and with a session", async () => {
      const user = await createUser({ role, banned: true, banReason: "test" });
      const req = await prepare(user);
      for (const auth of [{ key: (await createApiKey(user)).key }, { session: (await createSession(user)).token }]) {
        const res = await call(handler, path, { ...req, ...auth });
        expect(res.status).toBe(403);
        expect(res.body).toEqual(forbidden);
      }
    });

    if (mode === "session" || mode === "admin") {
      test("an API key → 403 forbidden (dashboard-only)", async () => {
        const user = await createUser({ role });
        const res = await call(handler, path, { ...(await prepare(user)), key: (await createApiKey(user)).key });
        expect(res.status).toBe(403);
        expect(res.body).toEqual(forbidden);
      });
    }

    if (mode === "admin") {
      test("a non-admin session → 403 forbidden", async () => {
        const user = await createUser();
        const res = await call(handler, path, { ...(await prepare(user)), session: (await createSession(user)).token });
        expect(res.status).toBe(403);
        expect(res.body).toEqual(forbidden);
      });
    }
  });
}
