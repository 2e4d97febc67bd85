import Link from "next/link";
import { getTranslations } from "next-intl/server";
import { HeaderBalance } from "@/components/money/header-balance";
import { viewerContext } from "@/lib/auth/viewer";
import { gatewayBalance } from "@/lib/billing/balance/gateway-balance";
import { LocaleSwitcher } from "./locale-switcher";

/** The signed-in visitor's balance and account, or null for a visitor nobody signed in as. */
async function signedInAs() {
  const ctx = await viewerContext();
  if (!ctx) return null;
  const { principal } = ctx;
  return { name: principal.email ?? principal.name ?? null, balance: (await gatewayBalance(ctx)).balance };
}

/**
 * The public pages' header: the catalog and the API reference, then, for a signed-in visitor, the
 * balance (to Billing) and the account (to the dashboard); for anyone else, the way in.
 */
export async function SiteHeader() {
  const [t, viewer] = await Promise.all([getTranslations("site"), signedInAs()]);
  // On a phone a signed-in visitor's balance and account take the API reference's place (the footer keeps it).
  const links = [
    { href: "/catalog", label: t("models"), className: "" },
    { href: "/docs", label: t("docs"), className: viewer ? "max-sm:hidden" : "" },
  ];
  const account = viewer?.name ?? t("account");
  return (
    <header className="border-b border-slate-200 bg-white">
      <div className="mx-auto flex h-14 max-w-7xl items-center justify-between gap-3 px-4">
        <Link href="/" className="flex min-w-0 shrink-0 items-center gap-2 font-semibold text-slate-900">
          <span className="inline-block h-6 w-6 shrink-0 rounded-md bg-gradient-to-br from-brand-500 to-fuchsia-500" aria-hidden />
          <span className="max-sm:sr-only">Generation Gateway</span>
        </Link>
        <nav className="flex min-w-0 items-center gap-3 text-sm text-slate-600 sm:gap-5">
          {links.map((l) => (
            <Link key={l.href} href={l.href} className={`whitespace-nowrap hover:text-slate-900 ${l.className}`}>
              {l.label}
            </Link>
          ))}
          {viewer ? (
            <>
              <HeaderBalance initialCredits={viewer.balance} testId="site-balance" />
              <Link
                href="/dashboard"
                className="flex min-w-0 items-center gap-2 hover:text-slate-900"
                title={account}
                data-testid="site-account"
              >
                <span
                  aria-hidden
                  className="inline-flex h-7 w-7 shrink-0 items-center justify-center rounded-full bg-brand-50 text-xs font-semibold uppercase text-brand-700"
                >
                  {account.slice(0, 1)}
                </span>
                {viewer.name && <span className="sr-only">{t("account")}: </span>}
                <span className="max-w-48 truncate max-md:sr-only">{account}</span>
              </Link>
            </>
          ) : (
            <Link href="/dashboard" className="whitespace-nowrap hover:text-slate-900">
              {t("dashboard")}
            </Link>
          )}
        </nav>
      </div>
    </header>
  );
}

export async function SiteFooter() {
  const t = await getTranslations("site");
  return (
    <footer className="mt-16 border-t border-slate-200 bg-white">
      <div className="mx-auto flex max-w-7xl flex-wrap items-center justify-between gap-4 px-4 py-6 text-sm text-slate-600">
        <span>{t("copyright")}</span>
        <LocaleSwitcher />
        {/* Footer links are seldom followed: fetched on a click, not ahead of it. */}
        <nav className="flex gap-4">
          <Link prefetch={false} href="/docs">
            {t("footerApi")}
          </Link>
          <a href="/openapi.json">{t("footerOpenapi")}</a>
          <Link prefetch={false} href="/changelog">
            {t("footerChangelog")}
          </Link>
          <Link prefetch={false} href="/status">
            {t("footerStatus")}
          </Link>
        </nav>
      </div>
    </footer>
  );
}
