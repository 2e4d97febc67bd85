import { brand } from "@/lib/core/brand";
import { fileTypeFromBuffer } from "file-type";
import { extensionFor, knownContentType } from "@/lib/storage/media-types";

/** Why a provider's file is not stored. */
export class UnsupportedResult extends Error {
  readonly code = "unsupported_media_type";
}
const unsupportedResults = brand<UnsupportedResult>("unsupported-result");
unsupportedResults.mark(UnsupportedResult);
export const isUnsupportedResult = unsupportedResults.is;

const ALIASES: Record<string, string> = {
  "image/apng": "image/png",
  "audio/ogg; codecs=opus": "audio/ogg",
  "audio/opus": "audio/ogg",
  "audio/x-m4a": "audio/mp4",
  "audio/x-flac": "audio/flac",
  "audio/x-wav": "audio/wav",
  "video/x-m4v": "video/mp4",
};

/**
 * Files whose bytes carry no magic number but are harmless to serve (with nosniff and a sandbox
 * CSP): 3D text formats, JSON, plain text, opaque binaries.
 */
const INERT = new Set(["model/obj", "model/gltf+json", "model/stl", "application/json", "text/plain", "application/octet-stream"]);
const MEDIA_FAMILIES = new Set(["image", "video", "audio", "model"]);

/**
 * The content type a re-hosted file is stored with, decided by its bytes: media (image, video,
 * audio, 3D) is accepted; anything else recognisable (HTML, scripts, executables, archives of
 * unknown purpose, PDFs) is refused. Bytes with no magic number are accepted only when the
 * origin called them one of the inert types above.
 */
export async function classifyResult(head: Uint8Array, declared: string | null | undefined): Promise<{ contentType: string; ext: string }> {
  const detected = await fileTypeFromBuffer(head);
  if (detected) {
    const mime = ALIASES[detected.mime] ?? detected.mime;
    if (!MEDIA_FAMILIES.has(mime.split("/")[0]!)) throw new UnsupportedResult(`The file is ${mime}, which is not a media type`);
    const known = knownContentType(mime);
    return { contentType: mime, ext: known ? extensionFor(known) : detected.ext.replace(/[^a-z0-9]/gi, "").slice(0, 8) || "bin" };
  }
  const bare = (declared ?? "").split(";")[0]!.trim().toLowerCase();
  if (INERT.has(bare)) return { contentType: bare, ext: extensionFor(bare) };
  if (head.byteLength === 0) throw new UnsupportedResult("The file is empty");
  throw new UnsupportedResult(`The file's format is not recognised${bare ? ` (sent as ${bare})` : ""}`);
}
