import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { POST as BAN } from "@/app/(gateway)/admin/users/[id]/ban/route";
import { DELETE as DELETE_KEY } from "@/app/(gateway)/me/keys/[id]/route";
import { DELETE as DELETE_SESSION } from "@/app/(gateway)/me/sessions/[id]/route";
import { GET as QUEUE_GET, POST as QUEUE } from "@/app/(gateway)/queue/[...path]/route";
import { GET as SKILL_STREAM } from "@/app/api/v1/requests/[requestId]/stream/route";
import { ManualClock } from "@/lib/jobs/clock";
import { startTestExecutor } from "@/lib/jobs/testing";
import { createActor, createSession } from "@/test/factories";
import { fundedActor, pathOf } from "@/test/generation";
import { call } from "@/test/http";
import { openStream, readEvents } from "@/test/sse";

/**
 * Issue 19 item 6: an event stream outlived its caller's right to read it. A stream opened before
 * its user was banned, its key deleted or its session revoked now ends within a few seconds
 * (lib/http/generation/streams.ts re-reads the caller's standing as it follows the job), with a final
 * `error` event carrying the refusal a new request would get, and without an id, so a reconnect
 * meets that refusal. The jobs here wait a minute for their provider: without the check, each
 * stream would run past the test's timeout.
 */
const FLUX = "fal-ai/flux/dev";
const clock = new ManualClock();
let jobs: Awaited<ReturnType<typeof startTestExecutor>>;
beforeAll(async () => {
  jobs = await startTestExecutor({ clock });
});
afterAll(() => jobs.uninstall());

/** A queued job the provider will not finish for a minute. */
async function pendingJob(key: string): Promise<string> {
  const res = await call(QUEUE, `/queue/${FLUX}`, { params: pathOf(FLUX), body: { prompt: "a long one [latency:60000]" }, key });
  expect(res.status).toBe(200);
  await jobs.drain();
  return res.body.requestId as string;
}

const statusStream = (id: string, auth: { key?: string; session?: string }) =>
  openStream(QUEUE_GET, `/queue/${FLUX}/requests/${id}/status/stream`, {
    ...auth,
    params: pathOf(FLUX, "requests", id, "status", "stream"),
  });

/** Reads the stream to its end, running `revoke` once its first event has arrived. */
async function readRevoked(res: Response, revoke: () => Promise<unknown>) {
  expect(res.status).toBe(200);
  let revoked: Promise<unknown> | undefined;
  const read = await readEvents(res, () => {
    revoked ??= revoke();
    return false;
  });
  await revoked;
  return read.events;
}

describe("auth", () => {
  test("a gateway status stream ends with 403 forbidden once its user is banned", async () => {
    const actor = await fundedActor(100);
    const admin = await createActor({ role: "admin" });
    const id = await pendingJob(actor.key);
    const events = await readRevoked(await statusStream(id, { key: actor.key }), () =>
      call(BAN, `/admin/users/${actor.user.id}/ban`, {
        params: { id: actor.user.id },
        body: { reason: "abuse" },
        session: admin.session,
      }).then((r) => expect(r.status).toBe(200)),
    );
    expect(events[0]).toMatchObject({ event: "status", data: { status: "queued" } });
    expect(events.at(-1)).toEqual({ id: undefined, event: "error", data: { error: "forbidden", message: "This account is banned" } });
    // The reconnect an EventSource makes is refused the same way.
    expect((await statusStream(id, { key: actor.key })).status).toBe(403);
  });

  test("a skill stream ends with UNAUTHORIZED once its API key is deleted", async () => {
    const actor = await fundedActor(100);
    const id = await pendingJob(actor.key);
    const open = await openStream(SKILL_STREAM, `/api/v1/requests/${id}/stream`, { key: actor.key, params: { requestId: id } });
    const events = await readRevoked(open, () =>
      call(DELETE_KEY, `/me/keys/${actor.apiKey.id}`, { method: "DELETE", params: { id: actor.apiKey.id }, session: actor.session }).then(
        (r) => expect(r.status).toBeLessThan(300),
      ),
    );
    expect(events.at(-1)).toEqual({ id: undefined, event: "error", data: { error: "The API key was deleted", code: "UNAUTHORIZED" } });
  });

  test("a dashboard stream (session) ends with 401 once that session is revoked", async () => {
    const actor = await fundedActor(100);
    const other = await createSession(actor.user);
    const id = await pendingJob(actor.key);
    const events = await readRevoked(await statusStream(id, { session: actor.session }), () =>
      call(DELETE_SESSION, `/me/sessions/${actor.sessionRow.id}`, {
        method: "DELETE",
        params: { id: actor.sessionRow.id },
        session: other.token,
      }).then((r) => expect(r.status).toBeLessThan(300)),
    );
    expect(events.at(-1)).toEqual({
      id: undefined,
      event: "error",
      data: { error: "unauthorized", message: "The session has ended; sign in again" },
    });
  });
});
