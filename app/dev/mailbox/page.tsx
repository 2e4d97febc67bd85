import Link from "next/link";
import { notFound } from "next/navigation";
import { getDb } from "@/db/client";
import { formatTime } from "@/components/dashboard/ui";
import { devMailboxEnabled } from "@/lib/email/mailbox";
import { listOutbox } from "@/lib/email/outbox";

export const metadata = { title: "Dev mailbox", robots: { index: false } };
// Read at request time: the outbox changes, and whether it is shown depends on the running config.
export const dynamic = "force-dynamic";

/**
 * Mail the server stored instead of sending (no SMTP_URL). A 404 unless the outbox may be shown:
 * never with SMTP configured, and in production only with DEV_MAILBOX=1 or E2E=1.
 */
export default async function DevMailboxPage() {
  if (!devMailboxEnabled()) notFound();
  const mails = await listOutbox(await getDb());
  return (
    <main className="mx-auto max-w-4xl px-4 py-10">
      <div className="flex items-end justify-between">
        <div>
          <h1 className="text-2xl font-semibold tracking-tight text-slate-900">Dev mailbox</h1>
          <p className="mt-1 text-sm text-slate-600">Mail kept by this server because SMTP_URL is not set. Newest first.</p>
        </div>
        <Link href="/signin" className="text-sm text-brand-600 hover:underline">
          Sign in
        </Link>
      </div>
      {mails.length === 0 && <p className="mt-8 text-sm text-slate-500">No mail yet.</p>}
      <ul className="mt-6 space-y-4">
        {mails.map((m) => (
          <li key={m.id} className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm" data-testid="dev-mail">
            <div className="flex flex-wrap items-baseline justify-between gap-2">
              <p className="font-medium text-slate-900">{m.subject}</p>
              <p className="text-xs text-slate-500">{formatTime(m.createdAt.toISOString())}</p>
            </div>
            <p className="text-sm text-slate-600">
              To <span className="font-mono">{m.to}</span>
            </p>
            {m.url && (
              <a href={m.url} className="mt-3 inline-block rounded-md bg-brand-600 px-4 py-2 text-sm font-medium text-white hover:bg-brand-700">
                Open sign-in link
              </a>
            )}
            <pre className="mt-3 whitespace-pre-wrap break-all rounded bg-slate-50 p-3 text-xs text-slate-600">{m.text}</pre>
          </li>
        ))}
      </ul>
    </main>
  );
}
