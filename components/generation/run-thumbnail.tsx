import type { ReactNode } from "react";

export type RunPreview = { url: string; contentType: string | null };

/**
 * A run's output at a glance: its first stored image, or a word for what it made (video, audio, a
 * file) or why there is nothing (it failed). Stored outputs come from our own storage, so a plain
 * <img> (next/image would only re-encode them).
 */
export function RunThumbnail({
  preview,
  alt,
  fallback,
  size = "sm",
}: {
  preview: RunPreview | null;
  alt: string;
  /** What to show without an image: the kind of file, or the run's outcome. */
  fallback: ReactNode;
  size?: "sm" | "fill";
}) {
  const box = size === "sm" ? "h-12 w-12" : "aspect-square w-full";
  const image = preview && (preview.contentType?.startsWith("image/") ?? false);
  return (
    <span
      className={`flex shrink-0 items-center justify-center overflow-hidden rounded-md bg-slate-100 ${box}`}
      data-testid="run-thumbnail"
      data-kind={image ? "image" : "none"}
    >
      {image ? (
        // eslint-disable-next-line @next/next/no-img-element
        <img src={preview.url} alt={alt} className="h-full w-full object-cover" loading="lazy" />
      ) : (
        <span className="px-1 text-center text-[11px] leading-tight text-slate-600">{fallback}</span>
      )}
    </span>
  );
}

/** The word for an output that is not an image, by its type. */
export function previewKind(preview: RunPreview | null): "video" | "audio" | "file" | null {
  if (!preview) return null;
  const type = preview.contentType ?? "";
  if (type.startsWith("video/")) return "video";
  if (type.startsWith("audio/")) return "audio";
  if (type.startsWith("image/")) return null;
  return "file";
}
