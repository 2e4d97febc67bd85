import { afterEach, describe, expect, test } from "vitest";
import { getDb } from "@/db/client";
import { createUser } from "@/test/factories";
import { onDebit } from "./debit-hook";
import { grantCredits, reserveCredits } from "./ledger";

const removals: (() => void)[] = [];
afterEach(() => removals.splice(0).forEach((remove) => remove()));

async function funded(credits: number) {
  const user = await createUser();
  await grantCredits(await getDb(), { userId: user.id, credits, type: "grant", idempotencyKey: `seed:${user.id}` });
  return user;
}

describe("debit listeners", () => {
  test("a debit through the ledger reaches an installed listener once, with the balance it left", async () => {
    const user = await funded(10_000);
    const heard: [string, number][] = [];
    removals.push(onDebit("test.listener", (_db, userId, balance) => heard.push([userId, balance])));

    await reserveCredits(await getDb(), { userId: user.id, apiKeyId: null, generationId: `gen-${user.id}`, credits: 2_500 });
    expect(heard).toEqual([[user.id, 7_500]]);
  });

  test("installing under a name already taken replaces that listener, never doubles it", async () => {
    const user = await funded(1_000);
    const heard: string[] = [];
    removals.push(onDebit("test.listener", () => heard.push("first")));
    removals.push(onDebit("test.listener", () => heard.push("second")));

    await reserveCredits(await getDb(), { userId: user.id, apiKeyId: null, generationId: `gen-${user.id}`, credits: 100 });
    expect(heard).toEqual(["second"]);
  });

  test("a listener that throws does not fail the debit, and the others still hear of it", async () => {
    const user = await funded(1_000);
    const heard: number[] = [];
    removals.push(
      onDebit("test.broken", () => {
        throw new Error("listener broke");
      }),
    );
    removals.push(onDebit("test.listener", (_db, _userId, balance) => heard.push(balance)));

    const move = await reserveCredits(await getDb(), { userId: user.id, apiKeyId: null, generationId: `gen-${user.id}`, credits: 400 });
    expect(move).toMatchObject({ applied: true, balance: 600 });
    expect(heard).toEqual([600]);
  });
});
