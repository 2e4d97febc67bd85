import { getDb, type Executor } from "@/db/client";
import { autoTopupRequested, lowBalanceCrossed } from "@/lib/jobs/events";
import { onDebit } from "@/lib/billing/ledger/debit-hook";
import { log } from "@/lib/core/logger";
import { markLowBalanceCrossing } from "./low-balance";
import { knownMaxThresholdCredits, maxThresholdCredits } from "./threshold-cache";

const inFlight = new Set<Promise<void>>();

/**
 * Told by the ledger after every debit (reserve, settle charge, clawback; lib/billing/ledger/debit-hook.ts) with the
 * balance it left. Above every threshold it returns at once without touching the database. Below,
 * the work runs detached from the request (and from the caller's transaction, which may not have
 * committed yet): one statement marks the crossing, and only the debit that set the mark sends the
 * auto top-up event (id per user + crossing, so 20 debits crossing at once make one event) and the
 * low-balance e-mail event.
 */
export function afterDebit(_db: Executor, userId: string, balanceAfterCredits: number): void {
  const known = knownMaxThresholdCredits();
  if (known !== null && balanceAfterCredits >= known) return;
  const work = onLowBalance(userId, balanceAfterCredits)
    .catch((err: unknown) => log.error("low-balance follow-up failed", { userId, error: err }))
    .finally(() => inFlight.delete(work));
  inFlight.add(work);
}

async function onLowBalance(userId: string, balanceAfterCredits: number): Promise<void> {
  const db = await getDb();
  if (balanceAfterCredits >= (await maxThresholdCredits(db))) return;
  const crossing = await markLowBalanceCrossing(db, userId);
  if (!crossing) return;
  const at = crossing.notifiedAt.getTime();
  const events = [];
  if (crossing.autoTopup) events.push(autoTopupRequested.create({ userId, crossingAt: at }, { id: `autotopup:${userId}:${at}` }));
  if (!crossing.optOut && crossing.email) {
    events.push(
      lowBalanceCrossed.create(
        { userId, crossingAt: at, balanceCredits: crossing.balanceCredits, thresholdRub: crossing.thresholdRub },
        { id: `lowbalance:${userId}:${at}` },
      ),
    );
  }
  if (events.length === 0) return;
  // Imported here: the ledger imports this module, and the Inngest client pulls in the executor.
  const { inngest } = await import("@/lib/jobs/client");
  await inngest.send(events);
}

/** Resolves when every detached follow-up started so far has finished (tests, graceful shutdown). */
export async function afterDebitSettled(): Promise<void> {
  while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
}

/** Installs the follow-ups on the ledger's debits: once per process, at start-up (and per test file). */
export function installDebitFollowUps(): () => void {
  return onDebit("payments.low-balance", afterDebit);
}
