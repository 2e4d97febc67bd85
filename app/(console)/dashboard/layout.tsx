import Link from "next/link";
import type { ReactNode } from "react";
import { Sidebar } from "@/components/dashboard/sidebar";

// The session gate arrives with the identity issue; until then the shell renders for everyone.
export default function DashboardLayout({ children }: { children: ReactNode }) {
  return (
    <div className="min-h-screen">
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex h-14 max-w-7xl items-center justify-between px-4">
          <Link href="/" className="font-semibold text-slate-900">
            Generation Gateway
          </Link>
          <Link href="/docs" className="text-sm text-slate-600 hover:text-slate-900">
            API reference
          </Link>
        </div>
      </header>
      <div className="mx-auto flex max-w-7xl gap-8 px-4 py-8">
        <aside className="w-52 shrink-0">
          <Sidebar isAdmin={false} />
        </aside>
        <main className="min-w-0 flex-1">{children}</main>
      </div>
    </div>
  );
}
