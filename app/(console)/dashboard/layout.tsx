import { getTranslations } from "next-intl/server";
import Link from "next/link";
import type { ReactNode } from "react";
import { SessionKeepAlive } from "@/components/dashboard/session-keep-alive";
import { MobileNav, Sidebar } from "@/components/dashboard/sidebar";
import { HeaderBalance } from "@/components/money/header-balance";
import { SubmitButton } from "@/components/dashboard/submit-button";
import { LocaleSwitcher } from "@/components/site/locale-switcher";
import { requireViewer } from "@/lib/auth/viewer";
import { gatewayBalance } from "@/lib/billing/balance/gateway-balance";
import { signOutAction } from "../../(site)/signin/actions";

/**
 * The session gate for everything under /dashboard: no valid session (unknown, expired, revoked or
 * banned) redirects to /signin. The proxy already sends cookie-less visitors there with the page
 * they asked for; API routes check auth themselves, so this is the pages' guard, not the only one.
 */
export default async function DashboardLayout({ children }: { children: ReactNode }) {
  const ctx = await requireViewer();
  const { principal } = ctx;
  const isAdmin = principal.role === "admin";
  const [t, { balance }] = await Promise.all([getTranslations("nav"), gatewayBalance(ctx)]);
  return (
    <div className="min-h-screen">
      <SessionKeepAlive />
      <header className="relative border-b border-slate-200 bg-white">
        <div className="mx-auto flex h-14 max-w-7xl items-center justify-between gap-3 px-4">
          <div className="flex min-w-0 items-center gap-3">
            <MobileNav
              isAdmin={isAdmin}
              extra={
                <div className="mt-6 space-y-2 border-t border-slate-100 px-3 pt-4 text-sm">
                  <p className="truncate text-slate-600">{principal.email ?? principal.name ?? t("accountFallback")}</p>
                  <p className="text-slate-600">
                    <span aria-hidden>{t("balance")}:</span>{" "}
                    <HeaderBalance initialCredits={balance} className="ml-1" testId="menu-balance" />
                  </p>
                  <Link href="/docs" className="block text-slate-700 hover:text-slate-900">
                    {t("docs")}
                  </Link>
                  <LocaleSwitcher />
                </div>
              }
            />
            <Link href="/" className="truncate font-semibold text-slate-900">
              Generation Gateway
            </Link>
          </div>
          <div className="flex min-w-0 items-center gap-4 text-sm">
            <LocaleSwitcher className="hidden md:flex" />
            <Link href="/catalog" className="hidden whitespace-nowrap text-slate-600 hover:text-slate-900 lg:inline">
              {t("catalog")}
            </Link>
            <Link href="/docs" className="hidden whitespace-nowrap text-slate-600 hover:text-slate-900 md:inline">
              {t("docs")}
            </Link>
            <HeaderBalance initialCredits={balance} className="hidden sm:inline" testId="header-balance" />
            <Link
              href="/dashboard/profile"
              className="hidden max-w-56 truncate text-slate-600 hover:text-slate-900 sm:inline"
              data-testid="viewer-email"
            >
              {principal.email ?? principal.name ?? t("accountFallback")}
            </Link>
            <form action={signOutAction}>
              <SubmitButton variant="ghost" pendingLabel={t("signingOut")} className="whitespace-nowrap px-2">
                {t("signOut")}
              </SubmitButton>
            </form>
          </div>
        </div>
      </header>
      <div className="mx-auto flex max-w-7xl gap-8 px-4 py-6 md:py-8">
        <aside className="hidden w-52 shrink-0 md:block">
          <Sidebar isAdmin={isAdmin} />
        </aside>
        <main className="min-w-0 flex-1">{children}</main>
      </div>
    </div>
  );
}
