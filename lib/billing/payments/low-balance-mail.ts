import { eq } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { users } from "@/db/schema";
import { sendMail } from "@/lib/email/send-mail";
import { env } from "@/lib/core/env";
import { formatCredits } from "@/lib/pricing/credits";

/**
 * The low-balance notice, once per crossing (the event id carries the crossing). The opt-out is
 * read again at sending time, so switching it off in between is respected.
 */
export async function sendLowBalanceMail(
  db: Executor,
  input: { userId: string; balanceCredits: number; thresholdRub: number },
): Promise<"sent" | "opted_out" | "no_email"> {
  const [user] = await db.select({ email: users.email, optOut: users.lowBalanceEmailOptOut }).from(users).where(eq(users.id, input.userId));
  if (!user?.email) return "no_email";
  if (user.optOut) return "opted_out";
  const billing = new URL("/dashboard/billing", env().APP_URL).toString();
  await sendMail(db, {
    to: user.email,
    subject: "Your Generation Gateway balance is low",
    text: [
      `Your balance is ${formatCredits(input.balanceCredits)}, below ${input.thresholdRub} ₽.`,
      `Generations stop with 402 insufficient_balance when it runs out. Top up or turn on auto top-up: ${billing}`,
      "",
      "You get this once each time the balance drops below the threshold. Switch these e-mails off in your profile.",
    ].join("\n"),
  });
  return "sent";
}
