import { asc, eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { activity, creditTransactions, generationEvents, generationRequests, localProviderRequests } from "@/db/schema";
import { getBalanceCredits, grantCredits } from "@/lib/billing/ledger/ledger";
import { CREDITS_PER_RUB } from "@/lib/pricing/credits";
import { createActor, createApiKey } from "./factories";

/** Generation tests: a user with credits, and the rows a job leaves behind. */
export async function fundedActor(rub = 100, options: { sandbox?: boolean } = {}) {
  const actor = await createActor();
  if (rub > 0) {
    await grantCredits(await getDb(), {
      userId: actor.user.id,
      credits: rub * CREDITS_PER_RUB,
      type: "grant",
      idempotencyKey: `test-grant:${actor.user.id}`,
    });
  }
  if (options.sandbox) {
    const sandbox = await createApiKey(actor.user, { mode: "test" });
    return { ...actor, key: sandbox.key, apiKey: sandbox };
  }
  return actor;
}

export const pathOf = (...parts: string[]) => ({ path: parts.join("/").split("/") });

export async function balanceOf(userId: string) {
  return getBalanceCredits(await getDb(), userId);
}

export async function ledgerOf(userId: string) {
  const db = await getDb();
  const rows = await db
    .select()
    .from(creditTransactions)
    .where(eq(creditTransactions.userId, userId))
    .orderBy(asc(creditTransactions.createdAt));
  return rows.filter((r) => r.type !== "grant").map((r) => ({ type: r.type, amount: r.amount, generationId: r.generationId }));
}

export async function jobRow(id: string) {
  const db = await getDb();
  const [row] = await db.select().from(generationRequests).where(eq(generationRequests.id, id));
  return row!;
}

export async function jobsOf(userId: string) {
  const db = await getDb();
  return db.select().from(generationRequests).where(eq(generationRequests.userId, userId));
}

export async function activityOf(requestId: string) {
  const db = await getDb();
  return db.select().from(activity).where(eq(activity.requestId, requestId));
}

export async function eventsOf(id: string) {
  const db = await getDb();
  const rows = await db.select().from(generationEvents).where(eq(generationEvents.generationId, id)).orderBy(asc(generationEvents.seq));
  return rows.map((r) => ({ kind: r.kind, ...r.data }) as Record<string, unknown>);
}

/** What the simulator was asked to run for a job (its requests carry the engine's id). */
export async function simulatorRequestsFor(generationId: string) {
  const db = await getDb();
  return db.select().from(localProviderRequests).where(eq(localProviderRequests.clientRequestId, generationId));
}

export async function simulatorRequestCount() {
  const db = await getDb();
  return (await db.select({ id: localProviderRequests.id }).from(localProviderRequests)).length;
}

/** Reads an SSE body to its end: [{event, data}] (comments, ids and the `retry:` hint dropped). */
export async function readSse(res: Response): Promise<{ event: string; data: any }[]> {
  const text = await res.text();
  return text
    .split("\n\n")
    .map((block) => block.split("\n").filter((l) => !l.startsWith(":")))
    .filter((lines) => lines.some((l) => l.startsWith("data: ")))
    .map((lines) => ({
      event: lines.find((l) => l.startsWith("event: "))?.slice(7) ?? "message",
      data: JSON.parse(lines.find((l) => l.startsWith("data: "))?.slice(6) ?? "null"),
    }));
}
