import Link from "next/link";
import { headers } from "next/headers";
import { devMailboxOpenTo } from "@/lib/email/mailbox";

export const metadata = { title: "Check your e-mail" };
// Whether the dev mailbox is offered depends on the running server's configuration and the request.
export const dynamic = "force-dynamic";

export default async function CheckEmailPage() {
  const mailbox = devMailboxOpenTo({ headers: await headers() });
  return (
    <div className="mx-auto max-w-md px-4 py-16">
      <div className="rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
        <h1 className="text-xl font-semibold text-slate-900">Check your e-mail</h1>
        <p className="mt-2 text-sm text-slate-600">
          We sent you a sign-in link. It works once and expires in an hour. You can close this tab.
        </p>
        {mailbox && (
          <p className="mt-4 rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900">
            This server keeps mail in a development outbox instead of sending it:{" "}
            <Link href="/dev/mailbox" className="font-medium underline">
              open the dev mailbox
            </Link>
            .
          </p>
        )}
        <p className="mt-4 text-sm">
          <Link href="/signin" className="text-brand-600 hover:underline">
            Use a different address
          </Link>
        </p>
      </div>
    </div>
  );
}
