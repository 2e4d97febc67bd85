import type { ServiceContext } from "@/lib/auth/context";
import { and, eq } from "drizzle-orm";
import { generationRequests } from "@/db/schema";
import { notFound } from "@/lib/core/errors";

export type RunCost = {
  requestId: string;
  status: string;
  /** Made with a `_test_` key: nothing moved on the real balance. */
  sandbox: boolean;
  /** Credits debited before the run (the quote). */
  reservedCredits: number;
  /** Credits finally charged; null until settled (or refunded, which settles to 0). */
  settledCredits: number | null;
};

/**
 * What the playground shows under a finished run: reserved and settled credits of the caller's
 * own request. The owner is in the WHERE, so someone else's request is as missing as none.
 */
export async function getRunCost({ db, principal: { userId } }: ServiceContext, requestId: string): Promise<RunCost> {
  const [row] = await db
    .select({
      requestId: generationRequests.id,
      status: generationRequests.status,
      sandbox: generationRequests.sandbox,
      reservedCredits: generationRequests.costReservedCredits,
      settledCredits: generationRequests.costSettledCredits,
    })
    .from(generationRequests)
    .where(and(eq(generationRequests.id, requestId), eq(generationRequests.userId, userId)))
    .limit(1);
  if (!row) throw notFound("Request");
  return row;
}
