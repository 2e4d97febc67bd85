import Link from "next/link";
import { getTranslations } from "next-intl/server";
import { LocaleSwitcher } from "./locale-switcher";

export async function SiteHeader() {
  const t = await getTranslations("site");
  const links = [
    { href: "/catalog", label: t("models") },
    { href: "/docs", label: t("docs") },
    { href: "/dashboard", label: t("dashboard") },
  ];
  return (
    <header className="border-b border-slate-200 bg-white">
      <div className="mx-auto flex h-14 max-w-6xl items-center justify-between px-4">
        <Link href="/" className="flex min-w-0 items-center gap-2 font-semibold text-slate-900">
          <span className="inline-block h-6 w-6 shrink-0 rounded-md bg-gradient-to-br from-brand-500 to-fuchsia-500" aria-hidden />
          <span className="max-sm:sr-only">Generation Gateway</span>
        </Link>
        <nav className="flex items-center gap-4 text-sm text-slate-600 sm:gap-5">
          {links.map((l) => (
            <Link key={l.href} href={l.href} className="hover:text-slate-900">
              {l.label}
            </Link>
          ))}
        </nav>
      </div>
    </header>
  );
}

export async function SiteFooter() {
  const t = await getTranslations("site");
  return (
    <footer className="mt-16 border-t border-slate-200 bg-white">
      <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-4 px-4 py-6 text-sm text-slate-600">
        <span>{t("copyright")}</span>
        <LocaleSwitcher />
        <nav className="flex gap-4">
          <Link href="/docs">{t("footerApi")}</Link>
          <a href="/openapi.json">{t("footerOpenapi")}</a>
          <Link href="/changelog">{t("footerChangelog")}</Link>
          <Link href="/status">{t("footerStatus")}</Link>
        </nav>
      </div>
    </footer>
  );
}
