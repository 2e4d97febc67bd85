/**
 * Content types the storage knows by file extension. Object keys end with one of these
 * extensions, so the local driver serves the right Content-Type without a metadata lookup.
 * Nothing here is HTML, SVG or script: objects are served from the app's own origin.
 */
const TYPES: [contentType: string, ext: string][] = [
  ["image/jpeg", "jpg"],
  ["image/png", "png"],
  ["image/webp", "webp"],
  ["image/gif", "gif"],
  ["image/avif", "avif"],
  ["image/heic", "heic"],
  ["image/heif", "heif"],
  ["image/tiff", "tiff"],
  ["image/bmp", "bmp"],
  ["image/jxl", "jxl"],
  ["video/mp4", "mp4"],
  ["video/webm", "webm"],
  ["video/quicktime", "mov"],
  ["video/matroska", "mkv"],
  ["audio/mpeg", "mp3"],
  ["audio/wav", "wav"],
  ["audio/webm", "weba"],
  ["audio/mp4", "m4a"],
  ["audio/ogg", "ogg"],
  ["audio/flac", "flac"],
  ["audio/aac", "aac"],
  ["model/gltf-binary", "glb"],
  ["model/gltf+json", "gltf"],
  ["model/obj", "obj"],
  ["model/stl", "stl"],
  ["application/json", "json"],
  ["text/plain", "txt"],
  ["application/zip", "zip"],
  ["application/octet-stream", "bin"],
];

/** Every type a stored file is served with (the /files operation documents each). */
export const STORED_CONTENT_TYPES: readonly string[] = TYPES.map(([type]) => type);

const byType = new Map(TYPES);
const byExt = new Map(TYPES.map(([t, e]) => [e, t]));

export const OCTET_STREAM = "application/octet-stream";

/** A known content type (parameters dropped), or null. */
export function knownContentType(contentType: string | null | undefined): string | null {
  const bare = (contentType ?? "").split(";")[0]!.trim().toLowerCase();
  return byType.has(bare) ? bare : null;
}

export function extensionFor(contentType: string): string {
  return byType.get(knownContentType(contentType) ?? OCTET_STREAM)!;
}

export function contentTypeForKey(key: string): string {
  const dot = key.lastIndexOf(".");
  const ext = dot > key.lastIndexOf("/") ? key.slice(dot + 1).toLowerCase() : "";
  return byExt.get(ext) ?? OCTET_STREAM;
}
