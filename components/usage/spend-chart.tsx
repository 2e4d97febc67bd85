import { useLocale, useTranslations } from "next-intl";
import { formatFor } from "@/lib/i18n/format";
import type { HistoryGranularity } from "@/lib/billing/usage/windows";

type Point = { bucket: string; credits: number; count: number };

const W = 720;
const H = 200;
const PAD = { top: 12, right: 8, bottom: 4, left: 8 };

/**
 * Spend over time as an SVG bar chart, rendered on the server: one bar per bucket, heights in
 * proportion to credits (integers, so the scale is exact), a tooltip per bar, a few axis labels.
 */
export function SpendChart({ series, granularity }: { series: Point[]; granularity: HistoryGranularity }) {
  const t = useTranslations("chart");
  const f = formatFor(useLocale());
  // A bucket's label: the hour for hourly series, the day otherwise (UTC, like the buckets).
  const label = (bucket: string) => (granularity === "hour" ? bucket.slice(11, 16) : f.day(bucket));
  const max = Math.max(0, ...series.map((p) => p.credits));
  const innerW = W - PAD.left - PAD.right;
  const innerH = H - PAD.top - PAD.bottom;
  const slot = innerW / Math.max(1, series.length);
  const barW = Math.max(1, slot * 0.75);
  const every = Math.max(1, Math.ceil(series.length / 8));
  return (
    <figure data-testid="spend-chart">
      <div className="mb-2 flex justify-between text-xs text-slate-600">
        <span>{t("peak", { amount: f.money(max, "charge") })}</span>
        <span>{granularity === "hour" ? t("perHour") : granularity === "day" ? t("perDay") : t("perWeek")}</span>
      </div>
      <svg viewBox={`0 0 ${W} ${H}`} preserveAspectRatio="none" className="h-48 w-full" role="img" aria-label={t("label")}>
        <line x1={PAD.left} x2={W - PAD.right} y1={H - PAD.bottom} y2={H - PAD.bottom} className="stroke-slate-300" />
        {series.map((p, i) => {
          const h = max === 0 ? 0 : (p.credits / max) * innerH;
          const x = PAD.left + i * slot + (slot - barW) / 2;
          return (
            <g key={p.bucket}>
              <rect x={x} y={H - PAD.bottom - h} width={barW} height={Math.max(h, p.credits > 0 ? 1 : 0)} rx={1} className="fill-brand-500">
                <title>
                  {t("bar", {
                    when: granularity === "hour" ? f.dateTime(p.bucket) : f.date(p.bucket),
                    amount: f.money(p.credits, "charge"),
                    count: p.count,
                  })}
                </title>
              </rect>
            </g>
          );
        })}
      </svg>
      {/* Axis labels in HTML, not in the scaled SVG: 12 px at every width (the SVG's shrank to 7 px on a phone). */}
      <div className="relative mt-1 h-4 text-xs text-slate-600" aria-hidden data-testid="chart-axis">
        {series.map((p, i) =>
          i % every === 0 ? (
            <span
              key={p.bucket}
              className={`absolute -translate-x-1/2 whitespace-nowrap ${(i / every) % 2 === 1 ? "max-sm:hidden" : ""}`}
              style={{ left: `${((PAD.left + i * slot + slot / 2) / W) * 100}%` }}
            >
              {label(p.bucket)}
            </span>
          ) : null,
        )}
      </div>
      {max === 0 && <figcaption className="mt-2 text-center text-sm text-slate-600">{t("empty")}</figcaption>}
    </figure>
  );
}
