import type { ServiceContext } from "@/lib/auth/context";
import { count, desc, eq } from "drizzle-orm";
import { payments } from "@/db/schema";
import { toPaymentView } from "./payment-view";

/** GET /billing/payments: the caller's payments, newest first (payments_user_created_idx). */
export async function listPayments({ db, principal: { userId } }: ServiceContext, page: { limit: number; offset: number }) {
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(payments)
      .where(eq(payments.userId, userId))
      .orderBy(desc(payments.createdAt), desc(payments.id))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ n: count() }).from(payments).where(eq(payments.userId, userId)),
  ]);
  return { items: rows.map(toPaymentView), total: total?.n ?? 0, limit: page.limit, offset: page.offset };
}
