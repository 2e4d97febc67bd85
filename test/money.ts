import { getDb } from "@/db/client";
import { activity } from "@/db/schema";
import { grantCredits, reserveCredits } from "@/lib/billing/ledger/ledger";

let seq = 0;
const uid = () => `${Date.now().toString(36)}-${(seq++).toString(36)}-${Math.random().toString(36).slice(2, 8)}`;

export type ActivityInput = {
  modelId?: string | null;
  credits: number;
  /** How long ago (ms), or an exact time. */
  at: number | Date;
  apiKeyId?: string | null;
  sandbox?: boolean;
  status?: string;
};

/** Activity rows as the generation engine writes them: one per billed operation. */
export async function insertActivity(userId: string, rows: ActivityInput[]) {
  const db = await getDb();
  await db.insert(activity).values(
    rows.map((r) => ({
      id: `act_${uid()}`,
      userId,
      apiKeyId: r.apiKeyId ?? null,
      modelId: r.modelId === undefined ? "fal-ai/flux/dev" : r.modelId,
      operation: "run",
      credits: r.credits,
      status: r.status ?? "completed",
      requestId: crypto.randomUUID(),
      sandbox: r.sandbox ?? false,
      createdAt: typeof r.at === "number" ? new Date(Date.now() - r.at) : r.at,
    })),
  );
}

/** A top-up or grant through the ledger. */
export async function grant(userId: string, credits: number, type: "topup" | "grant" = "grant", description?: string) {
  return grantCredits(await getDb(), { userId, credits, type, idempotencyKey: `test-grant:${uid()}`, description });
}

/** A generation's reserve through the ledger (a debit, counted as spent). */
export async function spend(userId: string, credits: number, apiKeyId: string | null = null) {
  return reserveCredits(await getDb(), { userId, apiKeyId, generationId: crypto.randomUUID(), credits });
}
