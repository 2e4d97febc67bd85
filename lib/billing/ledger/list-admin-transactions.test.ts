import { describe, expect, test } from "vitest";
import { getDb } from "@/db/client";
import { createUser } from "@/test/factories";
import { grant } from "@/test/money";
import { listAdminTransactions } from "./list-admin-transactions";

describe("success", () => {
  test("rows carry their user's e-mail; a part of an address or a user id filters, case-insensitively", async () => {
    const db = await getDb();
    const tag = crypto.randomUUID().slice(0, 8);
    const ann = await createUser({ email: `ann-${tag}@Example.test` });
    const bob = await createUser({ email: `bob-${tag}@example.test` });
    await grant(ann.id, 10_000, "grant", "for ann");
    await grant(bob.id, 20_000, "topup", "for bob");

    const byEmail = await listAdminTransactions(db, { user: `ANN-${tag}`, limit: 10, offset: 0 });
    expect(byEmail.total).toBe(1);
    expect(byEmail.items).toEqual([
      expect.objectContaining({ userId: ann.id, email: ann.email, amount: 10_000, type: "grant", description: "for ann" }),
    ]);

    const both = await listAdminTransactions(db, { user: `-${tag}@`, limit: 10, offset: 0 });
    expect(both.items.map((r) => r.email)).toEqual([bob.email, ann.email]);

    const byId = await listAdminTransactions(db, { user: bob.id, limit: 10, offset: 0 });
    expect(byId.items.map((r) => r.email)).toEqual([bob.email]);

    const byType = await listAdminTransactions(db, { user: `-${tag}@`, type: "topup", limit: 10, offset: 0 });
    expect(byType.items.map((r) => r.userId)).toEqual([bob.id]);
  });

  test("LIKE wildcards in the filter are matched literally", async () => {
    const db = await getDb();
    const res = await listAdminTransactions(db, { user: "%", limit: 10, offset: 0 });
    expect(res.total).toBe(0);
  });
});
