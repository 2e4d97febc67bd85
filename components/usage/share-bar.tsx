/** A row's share of the largest value, as a thin bar (integers in, a percentage width out). */
export function ShareBar({ value, max }: { value: number; max: number }) {
  const pct = max > 0 ? Math.max(value > 0 ? 1 : 0, Math.round((value / max) * 100)) : 0;
  return (
    <div className="h-2 w-32 rounded bg-slate-100">
      <div className="h-2 rounded bg-brand-500" style={{ width: `${pct}%` }} />
    </div>
  );
}
