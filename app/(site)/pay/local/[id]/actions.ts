"use server";

import { redirect } from "next/navigation";
import { confirmLocalPayment, type LocalOutcome } from "@/lib/payments/local/confirm";

/** The buttons of the local provider's confirmation page: pay or decline, then back to the shop. */
export async function decideLocalPayment(id: string, outcome: LocalOutcome): Promise<void> {
  const { returnUrl } = await confirmLocalPayment(id, outcome);
  redirect(returnUrl ?? `/pay/local/${id}`);
}
