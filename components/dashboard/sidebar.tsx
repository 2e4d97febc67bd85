import Link from "next/link";
import { adminNav, userNav } from "./nav";

function NavGroup({ title, items }: { title: string; items: { href: string; label: string }[] }) {
  return (
    <div>
      <p className="px-3 text-xs font-semibold uppercase tracking-wider text-slate-400">{title}</p>
      <ul className="mt-2 space-y-1">
        {items.map((item) => (
          <li key={item.href}>
            <Link href={item.href} className="block rounded-md px-3 py-1.5 text-sm text-slate-700 hover:bg-slate-100">
              {item.label}
            </Link>
          </li>
        ))}
      </ul>
    </div>
  );
}

export function Sidebar({ isAdmin }: { isAdmin: boolean }) {
  return (
    <nav className="space-y-6">
      <NavGroup title="Account" items={userNav} />
      {isAdmin && <NavGroup title="Admin" items={adminNav} />}
    </nav>
  );
}
