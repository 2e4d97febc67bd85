import { eq, inArray } from "drizzle-orm";
import { describe, expect, test } from "vitest";
import { getDb } from "@/db/client";
import { apiKeys } from "@/db/schema";
import { createActor, createApiKey } from "@/test/factories";
import { countKeyRequestLater, flushUsageCounts, readKeyStanding } from "./usage-counts";

const countsOf = async (ids: string[]) =>
  Object.fromEntries(
    (await (await getDb()).select().from(apiKeys).where(inArray(apiKeys.id, ids))).map((r) => [
      r.id,
      { n: r.requestCount, last: r.lastRequest },
    ]),
  );

describe("deferred usage counts", () => {
  test("counts of many keys, added up in memory, are written exactly by one flush; last_request is the latest", async () => {
    const a = await createActor();
    const b = await createApiKey(a.user);
    const t0 = Date.parse("2026-11-25T10:00:00Z");
    for (let i = 0; i < 500; i++) countKeyRequestLater(i % 5 === 0 ? b.id : a.apiKey.id, t0 + i);
    await flushUsageCounts();
    const counts = await countsOf([a.apiKey.id, b.id]);
    expect(counts[a.apiKey.id]!.n).toBe(400);
    expect(counts[b.id]!.n).toBe(100);
    expect(counts[a.apiKey.id]!.last!.getTime()).toBe(t0 + 499);
    expect(counts[b.id]!.last!.getTime()).toBe(t0 + 495);
    // A later flush adds to them and never moves last_request back.
    countKeyRequestLater(a.apiKey.id, t0 - 60_000);
    await flushUsageCounts();
    expect((await countsOf([a.apiKey.id]))[a.apiKey.id]).toEqual({ n: 401, last: new Date(t0 + 499) });
  });

  test("a key deleted before the flush loses its counts, and the others are written", async () => {
    const a = await createActor();
    const gone = await createApiKey(a.user);
    countKeyRequestLater(gone.id);
    countKeyRequestLater(a.apiKey.id);
    await (await getDb()).delete(apiKeys).where(eq(apiKeys.id, gone.id));
    await flushUsageCounts();
    expect((await countsOf([a.apiKey.id]))[a.apiKey.id]!.n).toBe(1);
  });

  test("the standing read: the key's user and limits, null for an unknown key", async () => {
    const a = await createActor();
    const { standing, carried } = await readKeyStanding(await getDb(), a.apiKey.id);
    expect(standing).toMatchObject({ keyId: a.apiKey.id, userId: a.user.id, enabled: true, banned: false });
    expect(carried).toBeNull();
    expect((await readKeyStanding(await getDb(), "key_unknown")).standing).toBeNull();
  });
});
