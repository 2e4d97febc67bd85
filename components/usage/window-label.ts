/** The usage windows the pages offer; each has a short label (`w_7d`) and a long one (`w_7d_long`) in `chart`. */
export const WINDOW_LABELS = ["24h", "7d", "30d", "90d"] as const;
export type WindowLabel = (typeof WINDOW_LABELS)[number];
type LabelKey = `w_${WindowLabel}` | `w_${WindowLabel}_long`;

/** A window's label in the page's language (`t` of the `chart` messages), or the window as given when it has none. */
export function windowLabel(t: (key: LabelKey) => string, w: string, long = false): string {
  const known = WINDOW_LABELS.find((k) => k === w);
  if (!known) return w;
  return long ? t(`w_${known}_long`) : t(`w_${known}`);
}
