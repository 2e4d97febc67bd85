import type { InputHTMLAttributes, ReactNode, SelectHTMLAttributes } from "react";

export const inputClass =
  "block rounded-md border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 shadow-sm placeholder:text-slate-500 focus:border-brand-500 focus:outline-none focus:ring-1 focus:ring-brand-500 disabled:bg-slate-50";

/** Full width unless the caller sets a width. */
const sized = (className = "") => `${inputClass} ${/(^|\s)w-/.test(className) ? "" : "w-full"} ${className}`;

export function Input(props: InputHTMLAttributes<HTMLInputElement>) {
  return <input {...props} className={sized(props.className)} />;
}

export function Select(props: SelectHTMLAttributes<HTMLSelectElement>) {
  return <select {...props} className={sized(props.className)} />;
}

export function Field({ label, hint, children }: { label: string; hint?: ReactNode; children: ReactNode }) {
  return (
    <label className="block space-y-1">
      <span className="text-sm font-medium text-slate-700">{label}</span>
      {children}
      {hint && <span className="block text-xs text-slate-500">{hint}</span>}
    </label>
  );
}

const tones = {
  slate: "bg-slate-100 text-slate-700",
  green: "bg-emerald-50 text-emerald-700",
  red: "bg-red-50 text-red-700",
  amber: "bg-amber-50 text-amber-800",
  brand: "bg-brand-50 text-brand-700",
} as const;

export function Badge({ tone = "slate", children }: { tone?: keyof typeof tones; children: ReactNode }) {
  return <span className={`inline-flex items-center rounded-full px-2 py-0.5 text-xs font-medium ${tones[tone]}`}>{children}</span>;
}

export function Alert({ tone = "red", children }: { tone?: "red" | "green" | "amber"; children: ReactNode }) {
  const cls = {
    red: "border-red-200 bg-red-50 text-red-800",
    green: "border-emerald-200 bg-emerald-50 text-emerald-800",
    amber: "border-amber-200 bg-amber-50 text-amber-900",
  }[tone];
  return (
    <div role={tone === "red" ? "alert" : "status"} className={`rounded-md border px-4 py-3 text-sm ${cls}`}>
      {children}
    </div>
  );
}

/** UTC and fixed format: identical on the server and in the browser (no hydration mismatch). */
export function formatTime(iso: string | null | undefined, empty = "—"): string {
  return iso ? `${iso.slice(0, 16).replace("T", " ")} UTC` : empty;
}

/**
 * A table; with `stack`, below md each row becomes a card (cells stacked, headers hidden, each
 * `Td`'s label shown above its value) so a phone never scrolls sideways and every action is reachable.
 * Without it, a wide table scrolls inside its own box.
 */
export function Table({ head, children, stack = false }: { head: ReactNode[]; children: ReactNode; stack?: boolean }) {
  const s = stack;
  return (
    <div
      tabIndex={0}
      className={`focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500 ${s ? "md:overflow-x-auto" : "overflow-x-auto"}`}
    >
      <table className={`min-w-full divide-y divide-slate-200 text-sm ${s ? "max-md:block" : ""}`}>
        <thead className={s ? "max-md:hidden" : undefined}>
          <tr>
            {head.map((h, i) => (
              <th key={i} className="px-3 py-2 text-left text-xs font-semibold uppercase tracking-wider text-slate-600">
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody
          className={`divide-y divide-slate-100 ${s ? "max-md:block max-md:[&>tr]:grid max-md:[&>tr]:grid-cols-2 max-md:[&>tr]:gap-x-4 max-md:[&>tr]:py-3 max-md:[&>tr>td:last-child]:col-span-2 max-md:[&>tr>td]:block max-md:[&>tr>td]:px-0 max-md:[&>tr>td]:py-1 max-md:[&>tr>td]:text-left max-md:[&>tr>td]:whitespace-normal" : ""}`}
        >
          {children}
        </tbody>
      </table>
    </div>
  );
}

export const cellClass = "px-3 py-2 align-middle text-slate-700";

/** A cell of a stacked `Table`: its column's label shows above the value on a phone. */
export function Td({ label, className = "", children }: { label?: string; className?: string; children?: ReactNode }) {
  return (
    <td className={`${cellClass} ${className}`}>
      {label && <span className="block text-xs font-semibold uppercase tracking-wider text-slate-600 md:hidden">{label}</span>}
      {children}
    </td>
  );
}

/**
 * A formatted date and time ("28 нояб. 2026, 21:51 UTC") that may wrap only between the date and
 * the time, never inside either: a narrow column shows two whole lines, not five broken ones.
 */
export function WhenText({ text }: { text: string }) {
  const cut = text.lastIndexOf(", ");
  if (cut < 0) return <span className="whitespace-nowrap">{text}</span>;
  return (
    <>
      <span className="whitespace-nowrap">{text.slice(0, cut + 1)}</span> <span className="whitespace-nowrap">{text.slice(cut + 2)}</span>
    </>
  );
}
