"use client";

import { useTranslations } from "next-intl";
import Link from "next/link";
import { usePathname } from "next/navigation";
import type { ReactNode } from "react";
import { Disclosure } from "@/components/ui/disclosure";
import { adminNav, userNav, type NavKey } from "./nav";

type Item = { href: string; label: NavKey };

/** The current page: an exact match, or the deepest nav entry the path sits under. */
export function currentHref(pathname: string, items: Item[]): string | undefined {
  const hits = items.filter((i) => pathname === i.href || pathname.startsWith(`${i.href}/`));
  return hits.sort((a, b) => b.href.length - a.href.length)[0]?.href;
}

function NavGroup({ title, items, current }: { title: string; items: Item[]; current: string | undefined }) {
  const t = useTranslations("nav");
  return (
    <div>
      <p className="px-3 text-xs font-semibold uppercase tracking-wider text-slate-600">{title}</p>
      <ul className="mt-2 space-y-1">
        {items.map((item) => {
          const active = item.href === current;
          return (
            <li key={item.href}>
              <Link
                href={item.href}
                aria-current={active ? "page" : undefined}
                className={`block rounded-md px-3 py-1.5 text-sm ${active ? "bg-brand-50 font-medium text-brand-700" : "text-slate-700 hover:bg-slate-100"}`}
              >
                {t(item.label)}
              </Link>
            </li>
          );
        })}
      </ul>
    </div>
  );
}

const catalogIcon = (
  <svg aria-hidden width="14" height="14" viewBox="0 0 14 14" className="shrink-0 fill-current">
    <rect width="6" height="6" rx="1" />
    <rect x="8" width="6" height="6" rx="1" />
    <rect y="8" width="6" height="6" rx="1" />
    <rect x="8" y="8" width="6" height="6" rx="1" />
  </svg>
);

/** The models catalog first (what the dashboard is for), then the account's pages, then the admin's. */
function NavLinks({ isAdmin }: { isAdmin: boolean }) {
  const pathname = usePathname();
  const current = currentHref(pathname, isAdmin ? [...userNav, ...adminNav] : userNav);
  const t = useTranslations("nav");
  return (
    <nav className="space-y-6" aria-label={t("label")}>
      <Link
        href="/catalog"
        className="flex items-center gap-2 rounded-md border border-slate-200 px-3 py-1.5 text-sm font-medium text-slate-800 hover:border-brand-500 hover:text-brand-700"
        data-testid="nav-catalog"
      >
        {catalogIcon}
        {t("catalog")}
      </Link>
      <NavGroup title={t("account")} items={userNav} current={current} />
      {isAdmin && <NavGroup title={t("admin")} items={adminNav} current={current} />}
    </nav>
  );
}

/** The desktop sidebar (md and up). */
export function Sidebar({ isAdmin }: { isAdmin: boolean }) {
  return <NavLinks isAdmin={isAdmin} />;
}

const menuIcon = (
  <svg aria-hidden width="16" height="16" viewBox="0 0 16 16" className="fill-current">
    <rect y="3" width="16" height="2" rx="1" />
    <rect y="7" width="16" height="2" rx="1" />
    <rect y="11" width="16" height="2" rx="1" />
  </svg>
);

/** Below md: a "Menu" button opening the same links as a drawer under the header; it closes on navigation. */
export function MobileNav({ isAdmin, extra }: { isAdmin: boolean; extra?: ReactNode }) {
  const t = useTranslations("nav");
  return (
    <div className="md:hidden">
      <Disclosure
        from="md"
        testId="mobile-nav"
        label={
          <>
            {menuIcon}
            {t("menu")}
          </>
        }
        panelClassName="absolute inset-x-0 top-14 z-30 max-h-[calc(100vh-3.5rem)] overflow-y-auto border-b border-slate-200 bg-white px-4 py-4 shadow-lg md:hidden"
      >
        <NavLinks isAdmin={isAdmin} />
        {extra}
      </Disclosure>
    </div>
  );
}
