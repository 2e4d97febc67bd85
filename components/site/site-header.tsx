import Link from "next/link";

const links = [
  { href: "/catalog", label: "Models" },
  { href: "/docs", label: "API reference" },
  { href: "/dashboard", label: "Dashboard" },
];

export function SiteHeader() {
  return (
    <header className="border-b border-slate-200 bg-white">
      <div className="mx-auto flex h-14 max-w-6xl items-center justify-between px-4">
        <Link href="/" className="flex items-center gap-2 font-semibold text-slate-900">
          <span className="inline-block h-6 w-6 rounded-md bg-gradient-to-br from-brand-500 to-fuchsia-500" aria-hidden />
          Generation Gateway
        </Link>
        <nav className="flex items-center gap-5 text-sm text-slate-600">
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

export function SiteFooter() {
  return (
    <footer className="mt-16 border-t border-slate-200 bg-white">
      <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-4 px-4 py-6 text-sm text-slate-500">
        <span>© Generation Gateway</span>
        <nav className="flex gap-4">
          <Link href="/docs">API</Link>
          <a href="/openapi.json">OpenAPI</a>
          <a href="/changelog.json">Changelog</a>
          <a href="/health">Status</a>
        </nav>
      </div>
    </footer>
  );
}
