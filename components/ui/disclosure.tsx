"use client";

import { useId, useState, type ReactNode } from "react";
import { usePathname, useSearchParams } from "next/navigation";

/**
 * Content that is always shown from `from` (md or lg) up and folds behind a button below it (a
 * phone). The server renders it folded on small screens and open on large ones through CSS alone, so
 * nothing flashes; it folds again after every navigation.
 */
export function Disclosure({
  label,
  from,
  children,
  buttonClassName = "",
  panelClassName = "",
  testId,
}: {
  label: ReactNode;
  from: "md" | "lg";
  children: ReactNode;
  buttonClassName?: string;
  panelClassName?: string;
  testId?: string;
}) {
  // Open only at the address it was opened at: any navigation folds it again.
  const where = `${usePathname()}?${useSearchParams().toString()}`;
  const [openAt, setOpenAt] = useState<string | null>(null);
  const open = openAt === where;
  const id = useId();
  const hideButton = from === "md" ? "md:hidden" : "lg:hidden";
  const showPanel = from === "md" ? "md:block" : "lg:block";
  return (
    <div data-testid={testId}>
      <button
        type="button"
        aria-expanded={open}
        aria-controls={id}
        onClick={() => setOpenAt(open ? null : where)}
        className={`${hideButton} inline-flex items-center gap-2 rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-800 hover:bg-slate-50 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500 ${buttonClassName}`}
      >
        {label}
      </button>
      <div id={id} className={`${open ? "block" : "hidden"} ${showPanel} ${panelClassName}`}>
        {children}
      </div>
    </div>
  );
}
