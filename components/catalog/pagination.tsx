import Link from "next/link";
import { catalogHref, type CatalogState } from "./links";

export function Pagination({ state, total }: { state: CatalogState; total: number }) {
  if (total === 0) return null;
  const from = state.offset + 1;
  const to = Math.min(state.offset + state.limit, total);
  const prev = state.offset > 0 ? catalogHref(state, { offset: Math.max(0, state.offset - state.limit) }) : null;
  const next = to < total ? catalogHref(state, { offset: state.offset + state.limit }) : null;
  const link = "rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm text-slate-700 hover:bg-slate-50";
  return (
    <nav aria-label="Pages" className="mt-6 flex items-center justify-between">
      <p className="text-sm text-slate-600">
        {from}–{to} of {total}
      </p>
      <div className="flex gap-2">
        {prev ? <Link href={prev} className={link} rel="prev">Previous</Link> : null}
        {next ? <Link href={next} className={link} rel="next">Next</Link> : null}
      </div>
    </nav>
  );
}
