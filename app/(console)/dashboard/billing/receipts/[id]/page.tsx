import { and, eq } from "drizzle-orm";
import { notFound } from "next/navigation";
import { payments } from "@/db/schema";
import { requireViewer } from "@/lib/auth/viewer";
import { formatCredits } from "@/lib/money/credits";

export const metadata = { title: "Receipt" };

/**
 * The service's own printable receipt, where the provider offers none (YooKassa e-mails the
 * 54-FZ receipt itself). Only the payer's own succeeded payments have one.
 */
export default async function ReceiptPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const { db, principal } = await requireViewer();
  const [payment] = await db.select().from(payments).where(and(eq(payments.id, id), eq(payments.userId, principal.userId)));
  if (!payment || payment.status !== "succeeded") notFound();
  const rows: [string, string][] = [
    ["Receipt for payment", payment.id],
    ["Provider payment id", payment.paymentProviderId ?? "—"],
    ["Paid by", principal.email ?? principal.userId],
    ["Date (UTC)", (payment.grantedAt ?? payment.createdAt).toISOString().slice(0, 19).replace("T", " ")],
    ["Description", payment.description ?? "Balance top-up"],
    ["Amount", formatCredits(payment.amountKopecks * 100)],
    ["Credits granted", payment.creditsToGrant.toLocaleString("en-US")],
  ];
  return (
    <article className="max-w-xl rounded-lg border border-slate-200 bg-white p-8 print:border-0">
      <h1 className="text-xl font-semibold text-slate-900">Generation Gateway — receipt</h1>
      <dl className="mt-6 divide-y divide-slate-100 text-sm">
        {rows.map(([k, v]) => (
          <div key={k} className="flex justify-between gap-6 py-2">
            <dt className="text-slate-500">{k}</dt>
            <dd className="text-right font-medium text-slate-900">{v}</dd>
          </div>
        ))}
      </dl>
      <p className="mt-6 text-xs text-slate-500">The fiscal (54-FZ) receipt is e-mailed by the payment provider when the shop has receipts enabled.</p>
    </article>
  );
}
