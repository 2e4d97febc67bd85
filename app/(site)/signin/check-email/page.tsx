import { getTranslations } from "next-intl/server";
import Link from "next/link";
import { headers } from "next/headers";
import { devMailboxOpenTo } from "@/lib/email/mailbox";

export async function generateMetadata() {
  return { title: (await getTranslations("signin"))("checkTitle") };
}
// Whether the dev mailbox is offered depends on the running server's configuration and the request.
export const dynamic = "force-dynamic";

export default async function CheckEmailPage() {
  const mailbox = devMailboxOpenTo({ headers: await headers() });
  const t = await getTranslations("signin");
  return (
    <div className="mx-auto max-w-md px-4 py-16">
      <div className="rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
        <h1 className="text-xl font-semibold text-slate-900">{t("checkTitle")}</h1>
        <p className="mt-2 text-sm text-slate-600">{t("checkSent")}</p>
        {mailbox && (
          <p className="mt-4 rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900">
            {t.rich("checkMailbox", {
              link: (chunks) => (
                <Link href="/dev/mailbox" className="font-medium underline">
                  {chunks}
                </Link>
              ),
            })}
          </p>
        )}
        <p className="mt-4 text-sm">
          <Link href="/signin" className="text-brand-600 hover:underline">
            {t("checkDifferent")}
          </Link>
        </p>
      </div>
    </div>
  );
}
