import { expect, test } from "@playwright/test";
import { Webhook } from "standardwebhooks";
import { apiUser, callbackReceiver, expectLedgerConsistent, jobOf, json, pollUntil, sessionFor, type ApiUser } from "./field-helpers";

/**
 * Generation in the field: the production build, a provider that takes time (the simulator's
 * `[latency:N]` and `[fail:…]` markers mean the same under PROVIDER=local and against the
 * fal-protocol simulator, PROVIDER=fal), driven the way clients drive it. After every test the
 * user's ledger is checked: each job charged or refunded exactly once, balance = sum of rows.
 */
const MODEL = "fal-ai/flux/schnell";
const SMALL = { image_size: { width: 256, height: 256 } };
const FUNDS = 1_000_000;

let user: ApiUser;
test.beforeEach(() => {
  user = apiUser(100);
});
test.afterEach(async () => {
  await expectLedgerConsistent(user.userId);
});

const balance = async (request: Parameters<typeof json>[0]) => (await json(request, "GET", "/me/balance", user)).body.balance as number;

test.describe("sync", () => {
  test("POST /run on a provider that takes 1.5 s answers 200 with the re-hosted result, charged once", async ({ request }) => {
    const res = await json(request, "POST", `/run/${MODEL}`, user, { prompt: "a lighthouse [latency:1500]", ...SMALL });
    expect(res.status).toBe(200);
    expect(res.body.images[0]).toMatchObject({ width: 256, height: 256, url: expect.stringContaining("/files/r/") });
    const image = await request.get(res.body.images[0].url);
    expect(image.status()).toBe(200);
    expect(image.headers()["content-type"]).toMatch(/^image\//);
    expect((await jobOf(res.body.request_id))?.status).toBe("completed");
    expect(await balance(request)).toBeLessThan(FUNDS);
  });

  test("skill sync: true on a provider that takes 2.5 s answers 200 with the GenerationResult", async ({ request }) => {
    const res = await json(request, "POST", "/api/v1/generate", user, {
      model: MODEL,
      input: { prompt: "an orchard [latency:2500]", ...SMALL },
      sync: true,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      status: "completed",
      model: MODEL,
      output: { images: [{ url: expect.stringContaining("/files/r/") }] },
    });
    expect(res.body.cost_rub).toBeGreaterThan(0);
  });

  test("a provider that fails is 502 provider_error with the request id, and the charge is already refunded", async ({ request }) => {
    const res = await json(request, "POST", `/run/${MODEL}`, user, { prompt: "down [latency:1000] [fail:provider]", ...SMALL });
    expect(res.status).toBe(502);
    expect(res.body).toMatchObject({ success: false, error: "provider_error", requestId: expect.any(String) });
    expect(res.headers["x-request-id"]).toBeTruthy();
    expect(await balance(request)).toBe(FUNDS);
    expect((await jobOf(res.body.requestId))?.status).toBe("failed");

    const skill = await json(request, "POST", "/api/v1/generate", user, {
      model: MODEL,
      input: { prompt: "down [fail:provider]", ...SMALL },
      sync: true,
    });
    expect(skill.status).toBe(502);
    expect(skill.body).toMatchObject({ code: "PROVIDER_ERROR", details: { requestId: expect.any(String) } });
    expect(await balance(request)).toBe(FUNDS);
  });

  test("a result that fails once to be fetched is fetched again: 200, charged once", async ({ request }) => {
    const res = await json(request, "POST", `/run/${MODEL}`, user, { prompt: "flaky result [latency:1500] [fail:result:1]", ...SMALL });
    expect(res.status).toBe(200);
    expect(res.body.images).toHaveLength(1);
  });

  test("a provider that fails once on submit, then accepts: 200, never a failure that was charged", async ({ request }) => {
    const res = await json(request, "POST", `/run/${MODEL}`, user, { prompt: "flaky submit [latency:1000] [fail:provider:1]", ...SMALL });
    expect(res.status).toBe(200);
    expect(res.body.images).toHaveLength(1);
  });

  test("a model failure is 500 generation_failed with the request id, refunded", async ({ request }) => {
    const res = await json(request, "POST", `/run/${MODEL}`, user, { prompt: "refused [latency:1000] [fail:generation]", ...SMALL });
    expect(res.status).toBe(500);
    expect(res.body).toMatchObject({ error: "generation_failed", requestId: expect.any(String) });
    expect(await balance(request)).toBe(FUNDS);
  });

  test("the partner integration on a provider that fails once and takes time: 200 with the cover, charged once", async ({ request }) => {
    const release = { artist: "Земфира", release_name: "Полночный экспресс", genre: "rock" };
    const res = await json(request, "POST", "/integrations/covers", user, { ...release, text: "a song [latency:1500] [fail:provider:1]" });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, cover_image_url: expect.stringContaining("/files/") });
    const failed = await json(request, "POST", "/integrations/covers", user, { ...release, text: "another song [fail:provider]" });
    expect(failed.status).toBe(502);
    expect(failed.body).toMatchObject({ error: "provider_error", requestId: expect.any(String) });
  });

  test("16 sync runs at once, each taking 1–3 s: every answer 200, each job charged once", async ({ request }) => {
    const answers = await Promise.all(
      Array.from({ length: 16 }, (_, i) =>
        json(request, "POST", `/run/${MODEL}`, user, { prompt: `crowd ${i} [latency:${1000 + (i % 5) * 500}]`, ...SMALL }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(16).fill(200));
    expect(new Set(answers.map((a) => a.body.request_id)).size).toBe(16);
    const { jobs } = await expectLedgerConsistent(user.userId);
    expect(jobs).toBe(16);
  });
});

test.describe("queue", () => {
  test("a queued run followed by polling every 500 ms: queued, in_progress, completed, then the result", async ({ request }) => {
    const submit = await json(request, "POST", `/queue/${MODEL}`, user, { prompt: "polled [latency:2500]", ...SMALL });
    expect(submit.status).toBe(200);
    const id = submit.body.requestId;
    const seen = new Set<string>();
    const final = await pollUntil(
      async () => {
        const status = await json(request, "GET", `/queue/${MODEL}/requests/${id}/status`, user);
        seen.add(status.body.status);
        return status.body;
      },
      (s) => s.status === "completed" || s.status === "failed",
    );
    expect(final.status).toBe("completed");
    expect(seen.has("in_progress")).toBe(true);
    const result = await json(request, "GET", `/queue/${MODEL}/requests/${id}`, user);
    expect(result.status).toBe(200);
    expect(result.body).toMatchObject({ request_id: id, images: [{ url: expect.stringContaining("/files/r/") }] });
  });

  test("a stock EventSource follows a queued run to its end, each event with an id, and stops at the 204", async ({
    page,
    context,
    baseURL,
  }) => {
    await context.addCookies([{ name: "authjs.session-token", value: await sessionFor(user.userId), url: baseURL! }]);
    await page.goto("/");
    const seen = await page.evaluate(async (model) => {
      const submit = await fetch(`/queue/${model}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ prompt: "streamed [latency:2500]", image_size: { width: 256, height: 256 } }),
      });
      const { requestId } = await submit.json();
      const follow = (url: string, names: string[]) =>
        new Promise<{ events: { name: string; id: string; data: unknown }[]; opens: number; closed: boolean }>((resolve) => {
          const source = new EventSource(url);
          const events: { name: string; id: string; data: unknown }[] = [];
          let opens = 0;
          source.onopen = () => opens++;
          for (const name of names)
            source.addEventListener(name, (e) =>
              events.push({ name, id: (e as MessageEvent).lastEventId, data: JSON.parse((e as MessageEvent).data) }),
            );
          // The server closes after the final event; the client reconnects with Last-Event-ID and is
          // told 204: the EventSource standard's "stop", so readyState becomes CLOSED.
          source.onerror = () => source.readyState === EventSource.CLOSED && resolve({ events, opens, closed: true });
          setTimeout(() => (source.close(), resolve({ events, opens, closed: false })), 30_000);
        });
      const [status, skill] = await Promise.all([
        follow(`/queue/${model}/requests/${requestId}/status/stream`, ["status"]),
        follow(`/api/v1/requests/${requestId}/stream`, ["status", "log", "completed", "failed"]),
      ]);
      return { requestId, status, skill };
    }, MODEL);

    for (const stream of [seen.status, seen.skill]) {
      expect(stream.closed).toBe(true);
      expect(stream.opens).toBe(1);
      const ids = stream.events.map((e) => Number(e.id));
      expect(ids.every((id) => Number.isSafeInteger(id) && id > 0)).toBe(true);
      expect(ids).toEqual([...ids].sort((a, b) => a - b));
      expect(new Set(ids).size).toBe(ids.length);
    }
    const statuses = seen.status.events.map((e) => (e.data as { status: string }).status);
    expect(statuses.at(-1)).toBe("completed");
    expect(statuses.filter((s) => s === "completed")).toHaveLength(1);
    expect(statuses).toContain("in_progress");
    const names = seen.skill.events.map((e) => e.name);
    expect(names.filter((n) => n === "completed" || n === "failed")).toEqual(["completed"]);
    expect(names.at(-1)).toBe("completed");
    expect(names).toContain("log");
    expect(seen.skill.events.at(-1)!.data).toMatchObject({ id: seen.requestId, status: "completed" });
  });

  test("a completion callback arrives signed per Standard Webhooks and verifies with the user's secret", async ({ request }) => {
    const receiver = await callbackReceiver();
    try {
      const submit = await json(request, "POST", `/queue/${MODEL}?webhook=${encodeURIComponent(receiver.url)}`, user, {
        prompt: "called back [latency:1500]",
        ...SMALL,
      });
      expect(submit.status).toBe(200);
      const id = submit.body.requestId;
      await pollUntil(
        async () => receiver.received.length,
        (n) => n > 0,
        { everyMs: 200, withinMs: 30_000 },
      );
      expect(receiver.received).toHaveLength(1);
      const { secret } = (await json(request, "GET", "/me/webhook-secret", user)).body;
      const [delivery] = receiver.received;
      const headers = Object.fromEntries(Object.entries(delivery!.headers).map(([k, v]) => [k, String(v)]));
      const payload = new Webhook(secret).verify(delivery!.body, headers) as Record<string, unknown>;
      expect(payload).toMatchObject({ request_id: id, model: MODEL, status: "completed", payload: { request_id: id } });
      expect(() => new Webhook(secret).verify(delivery!.body.replace("completed", "failed"), headers)).toThrow();
    } finally {
      await receiver.close();
    }
  });

  test("cancel while queued is refunded; cancel while running is refused and the run completes, charged once", async ({ request }) => {
    const queued = (await json(request, "POST", `/queue/${MODEL}`, user, { prompt: "cancel me [latency:15000]", ...SMALL })).body.requestId;
    const early = await json(request, "PUT", `/queue/${MODEL}/requests/${queued}/cancel`, user);
    expect(early.body).toEqual({ ok: true, status: "cancelled" });
    expect((await jobOf(queued))?.status).toBe("cancelled");

    const running = (await json(request, "POST", `/queue/${MODEL}`, user, { prompt: "too late [latency:3000]", ...SMALL })).body.requestId;
    await pollUntil(
      async () => (await json(request, "GET", `/queue/${MODEL}/requests/${running}/status`, user)).body.status,
      (s) => s !== "queued",
      { everyMs: 100 },
    );
    const late = await json(request, "PUT", `/queue/${MODEL}/requests/${running}/cancel`, user);
    expect(late.body).toMatchObject({ ok: false });
    const final = await pollUntil(
      async () => (await jobOf(running))?.status,
      (s) => s === "completed" || s === "failed",
    );
    expect(final).toBe("completed");
  });
});

test.describe("idempotency", () => {
  test("a repeated sync run with the same Idempotency-Key returns the first outcome; 20 concurrent queue duplicates make one job", async ({
    request,
  }) => {
    const key = crypto.randomUUID();
    const body = { prompt: "once only [latency:1500]", ...SMALL };
    const [first, second] = await Promise.all([
      json(request, "POST", `/run/${MODEL}`, user, body, { "idempotency-key": key }),
      new Promise((r) => setTimeout(r, 300)).then(() => json(request, "POST", `/run/${MODEL}`, user, body, { "idempotency-key": key })),
    ]);
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(second.body.request_id).toBe(first.body.request_id);
    const after = await json(request, "POST", `/run/${MODEL}`, user, body, { "idempotency-key": key });
    expect(after.body).toEqual(first.body);
    const reused = await json(request, "POST", `/run/${MODEL}`, user, { ...body, prompt: "something else" }, { "idempotency-key": key });
    expect(reused.status).toBe(422);
    expect(reused.body).toMatchObject({ success: false, error: "idempotency_key_reused" });

    const queueKey = crypto.randomUUID();
    const duplicates = await Promise.all(
      Array.from({ length: 20 }, () =>
        json(request, "POST", `/queue/${MODEL}`, user, { prompt: "one job [latency:1000]", ...SMALL }, { "idempotency-key": queueKey }),
      ),
    );
    expect(duplicates.map((d) => d.status)).toEqual(Array(20).fill(200));
    expect(new Set(duplicates.map((d) => d.body.requestId)).size).toBe(1);
    const { jobs } = await expectLedgerConsistent(user.userId);
    expect(jobs).toBe(2);
    await pollUntil(
      async () => (await jobOf(duplicates[0]!.body.requestId))?.status,
      (s) => s === "completed",
      { withinMs: 30_000 },
    );
  });
});
