import { useTranslations } from "next-intl";
import Link from "next/link";
import { windowLabel } from "./window-label";

/** The window switcher: links, so the choice lives in the URL and survives a reload. */
export function WindowTabs<W extends string>({ windows, current, href }: { windows: readonly W[]; current: W; href: (w: W) => string }) {
  const t = useTranslations("chart");
  return (
    <nav className="inline-flex rounded-md border border-slate-200 bg-white p-0.5 text-sm" aria-label={t("window")}>
      {/* Each tab re-renders a whole dynamic page: fetched on a click, not ahead of it. */}
      {windows.map((w) => (
        <Link
          prefetch={false}
          key={w}
          href={href(w)}
          aria-current={w === current ? "page" : undefined}
          title={windowLabel(t, w, true)}
          className={`rounded px-3 py-1 ${w === current ? "bg-brand-600 text-white" : "text-slate-600 hover:text-slate-900"}`}
        >
          {windowLabel(t, w)}
        </Link>
      ))}
    </nav>
  );
}
