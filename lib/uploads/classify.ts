import { fileTypeFromBuffer } from "file-type";
import { DomainError } from "@/lib/core/errors";

/**
 * What users may upload, decided by the file's bytes (magic numbers), never by its name or
 * declared type alone. Images: the common web and phone formats. Video: mp4. Audio: the spec's
 * list (audio/mpeg, audio/mp3, audio/wav, audio/wave, audio/x-wav, audio/webm, audio/mp4,
 * audio/ogg, audio/flac), each alias folded into one canonical type.
 */
export const UPLOAD_CONTENT_TYPES = [
  "image/jpeg",
  "image/png",
  "image/webp",
  "image/gif",
  "image/avif",
  "image/heic",
  "image/heif",
  "video/mp4",
  "audio/mpeg",
  "audio/wav",
  "audio/webm",
  "audio/mp4",
  "audio/ogg",
  "audio/flac",
] as const;
export type UploadContentType = (typeof UPLOAD_CONTENT_TYPES)[number];

/** Declared types (and aliases) → the canonical type they mean. */
const DECLARED: Record<string, UploadContentType> = {
  "image/jpeg": "image/jpeg",
  "image/jpg": "image/jpeg",
  "image/pjpeg": "image/jpeg",
  "image/png": "image/png",
  "image/apng": "image/png",
  "image/x-png": "image/png",
  "image/webp": "image/webp",
  "image/gif": "image/gif",
  "image/avif": "image/avif",
  "image/heic": "image/heic",
  "image/heic-sequence": "image/heic",
  "image/heif": "image/heif",
  "image/heif-sequence": "image/heif",
  "video/mp4": "video/mp4",
  "video/x-m4v": "video/mp4",
  "application/mp4": "video/mp4",
  "audio/mpeg": "audio/mpeg",
  "audio/mp3": "audio/mpeg",
  "audio/mpeg3": "audio/mpeg",
  "audio/x-mpeg": "audio/mpeg",
  "audio/x-mp3": "audio/mpeg",
  "audio/wav": "audio/wav",
  "audio/wave": "audio/wav",
  "audio/x-wav": "audio/wav",
  "audio/vnd.wave": "audio/wav",
  "audio/x-pn-wav": "audio/wav",
  "audio/webm": "audio/webm",
  "audio/mp4": "audio/mp4",
  "audio/x-m4a": "audio/mp4",
  "audio/m4a": "audio/mp4",
  "audio/ogg": "audio/ogg",
  "audio/opus": "audio/ogg",
  "audio/vorbis": "audio/ogg",
  "application/ogg": "audio/ogg",
  "audio/flac": "audio/flac",
  "audio/x-flac": "audio/flac",
};

/** What file-type reports → canonical type, where the bytes alone settle it. */
const DETECTED: Record<string, UploadContentType> = {
  "image/jpeg": "image/jpeg",
  "image/png": "image/png",
  "image/apng": "image/png",
  "image/webp": "image/webp",
  "image/gif": "image/gif",
  "image/avif": "image/avif",
  "image/heic": "image/heic",
  "image/heic-sequence": "image/heic",
  "image/heif": "image/heif",
  "image/heif-sequence": "image/heif",
  "video/mp4": "video/mp4",
  "video/x-m4v": "video/mp4",
  "audio/mpeg": "audio/mpeg",
  "audio/wav": "audio/wav",
  "audio/mp4": "audio/mp4",
  "audio/x-m4a": "audio/mp4",
  "audio/ogg": "audio/ogg",
  "audio/ogg; codecs=opus": "audio/ogg",
  "audio/opus": "audio/ogg",
  "audio/flac": "audio/flac",
  "audio/x-flac": "audio/flac",
};

/**
 * Containers whose bytes do not say whether they hold sound or pictures (an mp4 may be audio
 * only, WebM may be audio only), and image formats that share a container. Within one, the
 * declared type decides.
 */
const CONTAINER: Record<string, string> = {
  "video/mp4": "mp4",
  "video/x-m4v": "mp4",
  "audio/mp4": "mp4",
  "audio/x-m4a": "mp4",
  "video/webm": "webm",
  "audio/webm": "webm",
  "image/heic": "heif",
  "image/heic-sequence": "heif",
  "image/heif": "heif",
  "image/heif-sequence": "heif",
};

/**
 * Declarations that say nothing: no type, a generic binary type, or text/plain (what a
 * multipart parser reports for a part sent without a Content-Type header).
 */
const GENERIC = new Set(["", "application/octet-stream", "binary/octet-stream", "application/unknown", "application/binary", "text/plain"]);

const bare = (type: string | null | undefined) => (type ?? "").split(";")[0]!.trim().toLowerCase();

/** The accepted type a declared Content-Type (or one of its aliases) names, or null. */
export const declaredUploadType = (declared: string | null | undefined): UploadContentType | null => DECLARED[bare(declared)] ?? null;

export const emptyFile = () =>
  new DomainError("invalid_body", "The file is empty", { issues: [{ path: ["file"], message: "The file is empty" }] });

export const corruptFile = (type: string) =>
  new DomainError("invalid_body", `The file is not a valid ${type} file`, {
    issues: [{ path: ["file"], message: `Not a valid ${type} file` }],
  });

const unsupported = (message: string) => new DomainError("unsupported_media_type", message);
const allowedList = () => UPLOAD_CONTENT_TYPES.join(", ");

/**
 * Decides an upload's content type from its first bytes and the declared type. Throws 400 for an
 * empty or unrecognisable file that claims an allowed type, and 415 for a type not allowed or a
 * declared type that the bytes contradict.
 */
export async function classifyUpload(head: Uint8Array, declared: string | null | undefined): Promise<UploadContentType> {
  if (head.byteLength === 0) throw emptyFile();
  const declaredBare = bare(declared);
  const declaredType = DECLARED[declaredBare];
  const generic = GENERIC.has(declaredBare);
  const detected = (await fileTypeFromBuffer(head))?.mime;

  if (!detected) {
    if (declaredType) throw corruptFile(declaredType);
    throw unsupported(`The file's format is not recognised. Accepted types: ${allowedList()}`);
  }
  const canonical = DETECTED[detected];
  const container = CONTAINER[detected];
  if (!canonical && !container) throw unsupported(`Files of type ${detected} are not accepted. Accepted types: ${allowedList()}`);
  if (generic) {
    if (canonical) return canonical;
    throw unsupported(`${detected} is accepted only as audio; send it with the type audio/webm`);
  }
  if (declaredType && declaredType === canonical) return canonical;
  if (declaredType && container && CONTAINER[declaredType] === container) return declaredType;
  throw unsupported(`The file's bytes are ${canonical ?? detected}, but it was sent as ${declaredBare}`);
}

/** Image formats whose header the image library can read (HEIC needs a codec sharp lacks). */
export const HEADER_CHECKED_IMAGES = new Set<UploadContentType>(["image/jpeg", "image/png", "image/webp", "image/gif", "image/avif"]);
