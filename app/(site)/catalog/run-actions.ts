"use server";

import { viewerContext } from "@/lib/auth/viewer";
import { getRunCost, type RunCost, getRetryStates, type RetryState } from "@/lib/generation";
import { isDomainError } from "@/lib/core/errors";

/**
 * The playground's cost line after a run: reserved and settled credits of the signed-in user's
 * own request (the gateway's result shape carries no cost). Nobody signed in, or a request that is
 * not theirs, gets null, the same answer as a missing one.
 */
export async function runCostAction(requestId: unknown): Promise<RunCost | null> {
  if (typeof requestId !== "string" || requestId.length === 0 || requestId.length > 128) return null;
  const ctx = await viewerContext();
  if (!ctx) return null;
  try {
    return await getRunCost(ctx, requestId);
  } catch (err) {
    if (isDomainError(err)) return null;
    throw err;
  }
}

/**
 * While a run waits in the queue: whether its provider call failed and is being retried (the
 * attempt, which call). The signed-in user's own request only; anything else is null.
 */
export async function runRetryAction(requestId: unknown): Promise<RetryState | null> {
  if (typeof requestId !== "string" || requestId.length === 0 || requestId.length > 128) return null;
  const ctx = await viewerContext();
  if (!ctx) return null;
  return (await getRetryStates(ctx, [requestId])).get(requestId) ?? null;
}
