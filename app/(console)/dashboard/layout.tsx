import Link from "next/link";
import type { ReactNode } from "react";
import { SessionKeepAlive } from "@/components/dashboard/session-keep-alive";
import { Sidebar } from "@/components/dashboard/sidebar";
import { SubmitButton } from "@/components/dashboard/submit-button";
import { requireViewer } from "@/lib/auth/viewer";
import { signOutAction } from "../../(site)/signin/actions";

/**
 * The session gate for everything under /dashboard: no valid session (unknown, expired, revoked or
 * banned) redirects to /signin. The proxy already sends cookie-less visitors there with the page
 * they asked for; API routes check auth themselves, so this is the pages' guard, not the only one.
 */
export default async function DashboardLayout({ children }: { children: ReactNode }) {
  const { principal } = await requireViewer();
  return (
    <div className="min-h-screen">
      <SessionKeepAlive />
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex h-14 max-w-7xl items-center justify-between px-4">
          <Link href="/" className="font-semibold text-slate-900">
            Generation Gateway
          </Link>
          <div className="flex items-center gap-4 text-sm">
            <Link href="/docs" className="text-slate-600 hover:text-slate-900">
              API reference
            </Link>
            <Link href="/dashboard/profile" className="text-slate-600 hover:text-slate-900" data-testid="viewer-email">
              {principal.email ?? principal.name ?? "Account"}
            </Link>
            <form action={signOutAction}>
              <SubmitButton variant="ghost" pendingLabel="Signing out…">
                Sign out
              </SubmitButton>
            </form>
          </div>
        </div>
      </header>
      <div className="mx-auto flex max-w-7xl gap-8 px-4 py-8">
        <aside className="w-52 shrink-0">
          <Sidebar isAdmin={principal.role === "admin"} />
        </aside>
        <main className="min-w-0 flex-1">{children}</main>
      </div>
    </div>
  );
}
