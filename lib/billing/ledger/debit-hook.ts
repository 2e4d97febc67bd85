import type { Executor } from "@/db/client";
import { log } from "@/lib/core/logger";
import { processWide } from "@/lib/core/process-wide";

/**
 * Told about every debit (reserve, settle charge, clawback) with the balance it left. It must
 * return at once: the debit's caller may still be inside its transaction, so any work it starts
 * runs detached (lib/billing/payments/after-debit.ts: auto top-up and the low-balance mail).
 */
export type DebitListener = (db: Executor, userId: string, balanceAfterCredits: number) => void;

// Process-wide: the production build copies the ledger into several server chunks, and every copy
// must see the listeners installed once at start-up (lib/server/start.ts).
const listeners = processWide("billing.debit-listeners", () => new Map<string, DebitListener>());

/** Installs (or replaces) the listener called `name`; returns a function that removes it. */
export function onDebit(name: string, listener: DebitListener): () => void {
  listeners.set(name, listener);
  return () => {
    if (listeners.get(name) === listener) listeners.delete(name);
  };
}

/** The ledger's side: every listener hears of the debit; a listener's failure never fails it. */
export function publishDebit(db: Executor, userId: string, balanceAfterCredits: number): void {
  for (const [name, listener] of listeners) {
    try {
      listener(db, userId, balanceAfterCredits);
    } catch (err) {
      log.error("debit listener failed", { listener: name, userId, error: err });
    }
  }
}
