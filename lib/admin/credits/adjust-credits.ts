import type { Executor } from "@/db/client";
import { assertUserExists } from "@/lib/admin/users/get-user";
import { clawbackCredits, grantCredits, type Move } from "@/lib/billing/ledger/ledger";
import { transactionView } from "@/lib/billing/ledger/list-transactions";

export type AdjustCredits = { adminId: string; userId: string; amount: number; description?: string | null };

function result(move: Move) {
  if (!move.applied || !move.transaction) throw new Error("an admin credit move with a fresh key was not applied");
  return { transaction: transactionView(move.transaction) };
}

/**
 * POST /admin/users/{id}/credits/grant. Each request is its own grant (a fresh idempotency key),
 * recorded with the admin as the actor; a missing user is 404 before anything moves.
 */
export async function adminGrantCredits(db: Executor, input: AdjustCredits) {
  await assertUserExists(db, input.userId);
  const move = await grantCredits(db, {
    userId: input.userId,
    credits: input.amount,
    type: "grant",
    idempotencyKey: `admin-grant:${crypto.randomUUID()}`,
    description: input.description || undefined,
    actorUserId: input.adminId,
  });
  return result(move);
}

/**
 * POST /admin/users/{id}/credits/clawback. The ledger takes at most the balance (never below
 * zero), so the row's amount may be smaller than asked: it is what was actually taken.
 */
export async function adminClawbackCredits(db: Executor, input: AdjustCredits) {
  await assertUserExists(db, input.userId);
  const move = await clawbackCredits(db, {
    userId: input.userId,
    credits: input.amount,
    idempotencyKey: `admin-clawback:${crypto.randomUUID()}`,
    description: input.description || undefined,
    actorUserId: input.adminId,
  });
  return result(move);
}
