/**
 * The only writer of balances. Each move is ONE SQL statement: a conditional balance update whose
 * RETURNING feeds the ledger insert, so the balance and its explaining row commit together, the
 * database refuses an overdraft (`credits >= amount` in the WHERE, and the table's CHECK), and the
 * unique idempotency key turns a retried or concurrent duplicate into an error we answer with the
 * row that already exists. No read-then-write in JavaScript anywhere.
 *
 * By concern: `moves.ts` (a move's row and its duplicate answer), `reserve.ts` (a generation's
 * reserve), `generation-moves.ts` (its refund and settlement), `grants.ts` (top-ups, grants,
 * clawbacks).
 */
export { getBalanceCredits, type CreditTransaction, type Move } from "./moves";
export { afterReserve, insufficientBalance, reserveCredits, reserveCtes, type ReserveInput } from "./reserve";
export {
  refundCtes,
  refundGeneration,
  refundValues,
  settleGeneration,
  SETTLE_TOLERANCE_CREDITS,
  type RefundInput,
  type SettleInput,
} from "./generation-moves";
export { clawbackCredits, grantCredits, type ClawbackInput, type GrantInput } from "./grants";
