import type { Readable } from "node:stream";
import sharp from "sharp";
import { readInputUrl } from "@/lib/assets/read-input-url";
import { env } from "@/lib/core/env";
import { DomainError } from "@/lib/core/errors";
import { isOutboundError } from "@/lib/net";
import { fetchProviderMedia } from "@/lib/provider";
import { MAX_INPUT_PIXELS } from "./text-overlay/square-cover";

/** Raster formats a cover may come in. SVG is refused: it is a document, not a picture. */
const COVER_FORMATS = new Set(["jpeg", "png", "webp", "gif", "avif", "heif", "tiff"]);
const FETCH_TIMEOUT_MS = 30_000;

/**
 * The bytes of an image named by URL, checked to be a raster sharp can read. The service's own
 * files come straight from storage; a provider's link the simulator issued is rendered in-process;
 * anything else is fetched under the outbound rules (public addresses only, at most
 * MAX_UPLOAD_BYTES, redirects re-checked). Every failure is a 400 on `field`.
 */
export async function loadImage(url: string, field: string): Promise<Buffer> {
  const maxBytes = env().MAX_UPLOAD_BYTES;
  let bytes: Buffer;
  try {
    const media = url.startsWith("http") ? await fetchProviderMedia(url) : null;
    if (media) bytes = Buffer.from(media.bytes);
    else bytes = await collect((await readInputUrl(url, { maxBytes, timeoutMs: FETCH_TIMEOUT_MS })).body, maxBytes);
  } catch (err) {
    if (isOutboundError(err)) throw invalid(field, `${field} could not be fetched (${err.code}): ${err.message}`);
    throw err;
  }
  let format: string | undefined;
  try {
    format = (await sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS }).metadata()).format;
  } catch {
    format = undefined;
  }
  if (!format || !COVER_FORMATS.has(format)) {
    throw invalid(field, `${field} is not an image in a supported format (JPEG, PNG, WebP, GIF, AVIF, HEIF, TIFF)`);
  }
  return bytes;
}

const invalid = (field: string, message: string) => new DomainError("invalid_body", message, { issues: [{ path: [field], message }] });

async function collect(body: Readable, maxBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of body) {
    total += (chunk as Buffer).byteLength;
    if (total > maxBytes) {
      body.destroy();
      throw new DomainError("invalid_body", `The image is larger than ${maxBytes} bytes`);
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}
