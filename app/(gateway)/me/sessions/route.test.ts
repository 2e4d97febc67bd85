import { eq } from "drizzle-orm";
import { describe, expect, test } from "vitest";
import { getDb } from "@/db/client";
import { sessions } from "@/db/schema";
import { sessionListSchema } from "@/lib/http/contracts/me";
import { runAuthContract } from "@/test/auth-contract";
import { createActor, createSession } from "@/test/factories";
import { call } from "@/test/http";
import { GET as GET_ME } from "../route";
import { DELETE } from "./[id]/route";
import { GET } from "./route";

describe("success", () => {
  test("lists live sessions with their public id only, marking the current one", async () => {
    const alice = await createActor();
    const other = await createSession(alice.user);
    await createSession(alice.user, { expires: new Date(Date.now() - 1000) });
    const res = await call(GET, "/me/sessions", { session: alice.session });
    expect(res.status).toBe(200);
    expect(sessionListSchema.parse(res.body)).toEqual(res.body);
    expect(res.body.sessions.map((s: { id: string }) => s.id).sort()).toEqual([alice.sessionRow.id, other.id].sort());
    expect(res.body.sessions.find((s: { id: string }) => s.id === alice.sessionRow.id).current).toBe(true);
    expect(res.body.sessions.find((s: { id: string }) => s.id === other.id).current).toBe(false);
    expect(res.text).not.toContain(alice.session);
    expect(res.text).not.toContain(other.token);
  });

  test("DELETE revokes a session: its cookie stops working at once", async () => {
    const alice = await createActor();
    const phone = await createSession(alice.user);
    const res = await call(DELETE, "/", { method: "DELETE", session: alice.session, params: { id: phone.id } });
    expect(res.status).toBe(204);
    expect(await (await getDb()).select().from(sessions).where(eq(sessions.id, phone.id))).toEqual([]);
    expect((await call(GET_ME, "/me", { session: phone.token })).status).toBe(401);
    expect((await call(GET_ME, "/me", { session: alice.session })).status).toBe(200);
  });

  test("an API key can list and revoke its user's sessions", async () => {
    const alice = await createActor();
    const list = await call(GET, "/me/sessions", { key: alice.key });
    expect(list.body.sessions).toEqual([expect.objectContaining({ id: alice.sessionRow.id, current: false })]);
    expect((await call(DELETE, "/", { method: "DELETE", key: alice.key, params: { id: alice.sessionRow.id } })).status).toBe(204);
  });
});

describe("auth", () => {
  test("another user's session is 404, exactly like a missing one, and survives", async () => {
    const alice = await createActor();
    const bob = await createActor();
    const foreign = await call(DELETE, "/", { method: "DELETE", session: bob.session, params: { id: alice.sessionRow.id } });
    const missing = await call(DELETE, "/", { method: "DELETE", session: bob.session, params: { id: crypto.randomUUID() } });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ success: false, error: "not_found", message: "Session not found" });
    expect(missing.body).toEqual(foreign.body);
    expect((await call(GET_ME, "/me", { session: alice.session })).status).toBe(200);
  });

  runAuthContract("GET /me/sessions", GET, "/me/sessions", "key");
  runAuthContract("DELETE /me/sessions/{id}", DELETE, "/me/sessions/x", "key", async (user) => ({
    method: "DELETE",
    params: { id: (await createSession(user)).id },
  }));
});
