import { useLocale, useTranslations } from "next-intl";
import { formatFor, type Format } from "@/lib/i18n/format";
import type { MediaItem } from "./result-media";
import { resultView } from "./result-media";

type MediaT = ReturnType<typeof useTranslations<"media">>;

/** A file size in the page's locale: "12.3 KB" / "12,3 КБ". */
export function sizeLabel(bytes: number | undefined | null, t: MediaT, f: Format): string | null {
  if (bytes === undefined || bytes === null) return null;
  if (bytes < 1024) return t("b", { n: f.number(bytes) });
  if (bytes < 1024 * 1024) return t("kb", { n: f.number(Math.round(bytes / 102.4) / 10) });
  return t("mb", { n: f.number(Math.round(bytes / (1024 * 104.8576)) / 10) });
}

function caption(item: MediaItem, t: MediaT, f: Format): string {
  const parts = [
    item.contentType,
    item.width && item.height ? `${item.width}×${item.height}` : null,
    item.durationSec !== undefined ? t("sec", { n: f.number(item.durationSec) }) : null,
    sizeLabel(item.sizeBytes, t, f),
  ];
  return parts.filter(Boolean).join(" · ");
}

/** One file, inline: images and video shown, audio playable, anything else a download link. */
export function MediaTile({ item }: { item: MediaItem }) {
  const t = useTranslations("media");
  const f = formatFor(useLocale());
  return (
    <figure
      className="overflow-hidden rounded-md border border-slate-200 bg-slate-50"
      data-testid={`result-${item.kind}`}
      data-field={item.field}
    >
      {item.kind === "image" && (
        <a href={item.url} target="_blank" rel="noreferrer">
          {/* eslint-disable-next-line @next/next/no-img-element -- generated files of any size, served by the app */}
          <img
            src={item.url}
            alt={t("generated", { field: item.field })}
            width={item.width}
            height={item.height}
            loading="lazy"
            className="h-auto w-full bg-white object-contain"
          />
        </a>
      )}
      {item.kind === "video" && <video src={item.url} controls loop playsInline className="w-full bg-black" />}
      {item.kind === "audio" && <audio src={item.url} controls className="w-full p-2" />}
      {item.kind === "file" && (
        <a href={item.url} download className="block p-4 text-sm font-medium text-brand-700 hover:underline">
          {t("download", { field: item.field })}
        </a>
      )}
      <figcaption className="flex items-center justify-between gap-2 border-t border-slate-200 bg-white px-3 py-1.5 text-xs text-slate-600">
        <span className="truncate">{caption(item, t, f) || item.field}</span>
        <a href={item.url} target="_blank" rel="noreferrer" className="shrink-0 text-brand-700 hover:underline">
          {t("open")}
        </a>
      </figcaption>
    </figure>
  );
}

export function MediaGrid({ items }: { items: MediaItem[] }) {
  if (items.length === 0) return null;
  return (
    <div className={`grid gap-3 ${items.length > 1 ? "sm:grid-cols-2" : ""}`}>
      {items.map((item) => (
        <MediaTile key={`${item.field}:${item.url}`} item={item} />
      ))}
    </div>
  );
}

export function JsonBlock({ value, label = "JSON", open = false }: { value: unknown; label?: string; open?: boolean }) {
  return (
    <details open={open} className="rounded-md border border-slate-200 bg-white">
      <summary className="cursor-pointer px-3 py-2 text-xs font-medium uppercase tracking-wider text-slate-600">{label}</summary>
      <pre tabIndex={0} className="max-h-96 overflow-auto border-t border-slate-100 p-3 font-mono text-xs text-slate-800">
        {JSON.stringify(value, null, 2)}
      </pre>
    </details>
  );
}

/** A whole result: media first, then text (speech-to-text), then the other fields as JSON. */
export function ResultView({ result }: { result: Record<string, unknown> }) {
  const t = useTranslations("media");
  const view = resultView(result);
  return (
    <div className="space-y-3" data-testid="result">
      <MediaGrid items={view.media} />
      {view.text !== null && (
        <p className="whitespace-pre-wrap rounded-md border border-slate-200 bg-white p-3 text-sm text-slate-800" data-testid="result-text">
          {view.text}
        </p>
      )}
      {Object.keys(view.json).length > 0 && (
        <JsonBlock value={view.json} label={t("otherFields")} open={view.media.length === 0 && view.text === null} />
      )}
    </div>
  );
}
