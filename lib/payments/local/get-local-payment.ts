import { eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { localProviderPayments } from "@/db/schema";

/** What the local confirmation page shows; null for an unknown id. */
export async function getLocalPayment(id: string) {
  const [row] = await (await getDb()).select().from(localProviderPayments).where(eq(localProviderPayments.id, id));
  return row ?? null;
}
