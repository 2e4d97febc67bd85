/**
 * What a generation result shows inline: its media files (images, video, audio, other files such
 * as a GLB mesh), its text (speech-to-text) and everything else as JSON. Results follow fal's
 * shapes (spec "Generation results"): files are objects with a `url` and usually `content_type`,
 * alone (`video`, `audio`, `model_mesh`) or in arrays (`images`).
 */
export type MediaKind = "image" | "video" | "audio" | "file";

export type MediaItem = {
  kind: MediaKind;
  url: string;
  /** Where it sits in the result (`images[0]`, `video`), for labels and test ids. */
  field: string;
  contentType?: string;
  width?: number;
  height?: number;
  durationSec?: number;
  sizeBytes?: number;
};

export type ResultView = { media: MediaItem[]; text: string | null; json: Record<string, unknown> };

const KEY_KINDS: [RegExp, MediaKind][] = [
  [/image|thumbnail|frame/i, "image"],
  [/video/i, "video"],
  [/audio|speech|voice|music/i, "audio"],
];

const EXT_KINDS: [RegExp, MediaKind][] = [
  [/\.(png|jpe?g|webp|gif|avif)$/i, "image"],
  [/\.(mp4|webm|mov)$/i, "video"],
  [/\.(wav|mp3|ogg|flac|m4a|aac)$/i, "audio"],
];

/** The kind of a file, by its content type, else the field it sits in, else its URL's extension. */
export function mediaKindOf(contentType: string | null | undefined, field: string, url: string): MediaKind {
  const family = (contentType ?? "").split("/")[0]!.toLowerCase();
  if (family === "image" || family === "video" || family === "audio") return family;
  if (contentType && family) return "file";
  const byKey = KEY_KINDS.find(([re]) => re.test(field))?.[1];
  if (byKey) return byKey;
  let path = url;
  try {
    path = new URL(url, "http://x").pathname;
  } catch {
    /* keep the raw string */
  }
  return EXT_KINDS.find(([re]) => re.test(path))?.[1] ?? "file";
}

const num = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : undefined);

function fileItem(value: unknown, field: string): MediaItem | null {
  if (!value || typeof value !== "object" || Array.isArray(value)) return null;
  const f = value as Record<string, unknown>;
  if (typeof f.url !== "string" || !f.url) return null;
  const contentType = typeof f.content_type === "string" ? f.content_type : undefined;
  const item: MediaItem = { kind: mediaKindOf(contentType, field, f.url), url: f.url, field };
  if (contentType) item.contentType = contentType;
  const width = num(f.width);
  const height = num(f.height);
  const duration = num(f.duration);
  const size = num(f.file_size);
  if (width !== undefined) item.width = width;
  if (height !== undefined) item.height = height;
  if (duration !== undefined) item.durationSec = duration;
  if (size !== undefined) item.sizeBytes = size;
  return item;
}

/** Splits a result into media, text and the rest (`request_id` and `status` are shown elsewhere). */
export function resultView(result: Record<string, unknown> | null | undefined): ResultView {
  const media: MediaItem[] = [];
  const json: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(result ?? {})) {
    if (key === "request_id" || key === "status") continue;
    if (key === "text" && typeof value === "string") continue;
    const single = fileItem(value, key);
    if (single) {
      media.push(single);
      continue;
    }
    if (Array.isArray(value) && value.length > 0 && value.every((v) => fileItem(v, key))) {
      value.forEach((v, i) => media.push(fileItem(v, `${key}[${i}]`)!));
      continue;
    }
    json[key] = value;
  }
  const text = typeof result?.text === "string" ? result.text : null;
  return { media, text, json };
}

/** A stored asset (GET /me/activity/{id} `assets`) as a media item. */
export function assetMedia(asset: {
  id: string;
  publicUrl: string | null;
  contentType: string | null;
  sizeBytes: number | null;
}): MediaItem | null {
  if (!asset.publicUrl) return null;
  const item: MediaItem = { kind: mediaKindOf(asset.contentType, "", asset.publicUrl), url: asset.publicUrl, field: asset.id };
  if (asset.contentType) item.contentType = asset.contentType;
  if (asset.sizeBytes !== null) item.sizeBytes = asset.sizeBytes;
  return item;
}
