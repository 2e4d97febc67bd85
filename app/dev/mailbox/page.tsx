import { getTranslations } from "next-intl/server";
import Link from "next/link";
import { headers } from "next/headers";
import { notFound } from "next/navigation";
import { publicContext } from "@/lib/auth/context";
import { devMailboxOpenTo } from "@/lib/email/mailbox";
import { getFormat } from "@/lib/i18n/server";
import { listOutboxLinks } from "@/lib/email/outbox";

export async function generateMetadata() {
  return { title: (await getTranslations("mailbox"))("title"), robots: { index: false } };
}
// Read at request time: the outbox changes, and who may see it depends on the request.
export const dynamic = "force-dynamic";

/**
 * Sign-in links the server kept instead of mailing them (no SMTP_URL). A 404 unless the outbox may
 * be shown (never with SMTP configured; in production only with DEV_MAILBOX=1 or E2E=1) and the
 * request comes from this machine by its socket address: each link signs its recipient in.
 */
export default async function DevMailboxPage() {
  if (!devMailboxOpenTo({ headers: await headers() })) notFound();
  const [links, t, f] = await Promise.all([listOutboxLinks((await publicContext()).db), getTranslations("mailbox"), getFormat()]);
  return (
    <main className="mx-auto max-w-4xl px-4 py-10">
      <div className="flex items-end justify-between">
        <div>
          <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{t("title")}</h1>
          <p className="mt-1 text-sm text-slate-600">{t("description")}</p>
        </div>
        <Link href="/signin" className="text-sm text-brand-700 hover:underline">
          {t("signIn")}
        </Link>
      </div>
      {links.length === 0 && <p className="mt-8 text-sm text-slate-600">{t("empty")}</p>}
      <ul className="mt-6 space-y-4">
        {links.map((m) => (
          <li key={m.id} className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm" data-testid="dev-mail">
            <div className="flex flex-wrap items-baseline justify-between gap-2">
              <p className="text-sm text-slate-600">
                {t.rich("to", { address: m.to, mono: (chunks) => <span className="font-mono">{chunks}</span> })}
              </p>
              <p className="text-xs text-slate-600">{f.dateTime(m.createdAt)}</p>
            </div>
            <a
              href={m.url}
              className="mt-3 inline-block rounded-md bg-brand-600 px-4 py-2 text-sm font-medium text-white hover:bg-brand-700"
            >
              {t("open")}
            </a>
          </li>
        ))}
      </ul>
    </main>
  );
}
