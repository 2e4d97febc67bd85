import { createHmac, timingSafeEqual } from "node:crypto";
import { env } from "@/lib/core/env";
import type { MediaBytes } from "@/lib/provider/types";
import { renderGlb } from "./media/glb";
import { renderImage, type ImageFormat } from "@/lib/catalog/example-media/image";
import { renderMp4, VIDEO_SIZES } from "./media/mp4";
import { renderWav, type AudioStyle } from "@/lib/catalog/example-media/wav";
import { SizedLru } from "@/lib/core/sized-lru";
import { localProviderSecret } from "./secret";

/**
 * The simulator's media links. A link names everything that decides its bytes, so the bytes are
 * rendered on demand (and cached) by whoever holds the link: the `/sim/…` route for users of
 * `passthrough=1`, or `fetchMedia` in-process for re-hosting. Links are signed with the local
 * provider's secret and expire like a provider CDN link (about a day), so the route cannot be
 * used to render arbitrary media.
 *
 *   /sim/image/{seed}/{w}x{h}/{index}.{png|jpg}
 *   /sim/video/{seed}/{w}x{h}/{durationMs}.mp4
 *   /sim/audio/{seed}/{music|speech}/{durationMs}.wav
 *   /sim/mesh/{seed}.glb                                   each with ?exp={unix seconds}&sig={hex}
 */
export type MediaSpec =
  | { kind: "image"; seed: string; width: number; height: number; index: number; format: ImageFormat }
  | { kind: "video"; seed: string; width: number; height: number; durationMs: number }
  | { kind: "audio"; seed: string; style: AudioStyle; durationMs: number }
  | { kind: "mesh"; seed: string };

export const MEDIA_PREFIX = "/sim/";
export const LIMITS = {
  imageSide: { min: 16, max: 4096 },
  images: 8,
  videoMs: { min: 500, max: 10 * 60_000 },
  audioMs: { min: 100, max: 10 * 60_000 },
};

export function contentTypeOf(spec: MediaSpec): string {
  switch (spec.kind) {
    case "image":
      return spec.format === "png" ? "image/png" : "image/jpeg";
    case "video":
      return "video/mp4";
    case "audio":
      return "audio/wav";
    case "mesh":
      return "model/gltf-binary";
  }
}

export function fileNameOf(spec: MediaSpec): string {
  return mediaPath(spec).split("/").pop()!;
}

export function mediaPath(spec: MediaSpec): string {
  switch (spec.kind) {
    case "image":
      return `${MEDIA_PREFIX}image/${spec.seed}/${spec.width}x${spec.height}/${spec.index}.${spec.format === "png" ? "png" : "jpg"}`;
    case "video":
      return `${MEDIA_PREFIX}video/${spec.seed}/${spec.width}x${spec.height}/${spec.durationMs}.mp4`;
    case "audio":
      return `${MEDIA_PREFIX}audio/${spec.seed}/${spec.style}/${spec.durationMs}.wav`;
    case "mesh":
      return `${MEDIA_PREFIX}mesh/${spec.seed}.glb`;
  }
}

const SEED = "([0-9a-f]{16})";
const PATTERNS: [RegExp, (m: RegExpExecArray) => MediaSpec | null][] = [
  [
    new RegExp(`^/sim/image/${SEED}/(\\d{1,4})x(\\d{1,4})/(\\d)\\.(png|jpg)$`),
    (m) => {
      const [width, height, index] = [Number(m[2]), Number(m[3]), Number(m[4])];
      const { min, max } = LIMITS.imageSide;
      if (width < min || width > max || height < min || height > max || index >= LIMITS.images) return null;
      return { kind: "image", seed: m[1]!, width, height, index, format: m[5] === "png" ? "png" : "jpeg" };
    },
  ],
  [
    new RegExp(`^/sim/video/${SEED}/(\\d{1,4})x(\\d{1,4})/(\\d{1,7})\\.mp4$`),
    (m) => {
      const [width, height, durationMs] = [Number(m[2]), Number(m[3]), Number(m[4])];
      const known = Object.values(VIDEO_SIZES).some((s) => s.width === width && s.height === height);
      if (!known || durationMs < LIMITS.videoMs.min || durationMs > LIMITS.videoMs.max) return null;
      return { kind: "video", seed: m[1]!, width, height, durationMs };
    },
  ],
  [
    new RegExp(`^/sim/audio/${SEED}/(music|speech)/(\\d{1,7})\\.wav$`),
    (m) => {
      const durationMs = Number(m[3]);
      if (durationMs < LIMITS.audioMs.min || durationMs > LIMITS.audioMs.max) return null;
      return { kind: "audio", seed: m[1]!, style: m[2] as AudioStyle, durationMs };
    },
  ],
  [new RegExp(`^/sim/mesh/${SEED}\\.glb$`), (m) => ({ kind: "mesh", seed: m[1]! })],
];

export function parseMediaPath(pathname: string): MediaSpec | null {
  for (const [re, make] of PATTERNS) {
    const m = re.exec(pathname);
    if (m) return make(m);
  }
  return null;
}

function signature(path: string, exp: number, secret: string): string {
  const key = createHmac("sha256", secret).update("sim-media-links").digest();
  return createHmac("sha256", key).update(`${path}?exp=${exp}`).digest("hex").slice(0, 32);
}

/**
 * Who issues links: the app's simulator (APP_URL, the local secret) by default; the fal-protocol
 * simulator passes its own origin and secret, so its links are downloaded like fal's CDN files.
 */
export type MediaLinkIssuer = { base: string; secret: string };
const appIssuer = (): MediaLinkIssuer => ({ base: env().APP_URL, secret: localProviderSecret() });

/** An absolute, signed link to the media, valid until `expiresAt` (unix seconds). */
export function signedMediaUrl(spec: MediaSpec, expiresAt: number, issuer: MediaLinkIssuer = appIssuer()): string {
  const path = mediaPath(spec);
  return `${issuer.base.replace(/\/+$/, "")}${path}?exp=${expiresAt}&sig=${signature(path, expiresAt, issuer.secret)}`;
}

export type MediaLinkCheck = { ok: true; spec: MediaSpec } | { ok: false; reason: "not_media" | "bad_signature" | "expired" };

/** Checks a link's path, signature and expiry (`nowSeconds` defaults to the clock). */
export function checkMediaLink(
  pathname: string,
  params: URLSearchParams,
  nowSeconds = Math.floor(Date.now() / 1000),
  secret = localProviderSecret(),
): MediaLinkCheck {
  const spec = parseMediaPath(pathname);
  if (!spec) return { ok: false, reason: "not_media" };
  const exp = Number(params.get("exp"));
  const sig = params.get("sig") ?? "";
  if (!Number.isSafeInteger(exp) || !/^[0-9a-f]{32}$/.test(sig)) return { ok: false, reason: "bad_signature" };
  if (!timingSafeEqual(Buffer.from(sig), Buffer.from(signature(pathname, exp, secret)))) return { ok: false, reason: "bad_signature" };
  if (exp < nowSeconds) return { ok: false, reason: "expired" };
  return { ok: true, spec };
}

const globalCache = globalThis as unknown as { __gwSimMedia?: SizedLru<Uint8Array> };
const cache = () => (globalCache.__gwSimMedia ??= new SizedLru<Uint8Array>(128 * 1024 * 1024, (b) => b.byteLength));

/** The bytes of a piece of media, rendered once and then served from a 128 MB LRU cache. */
export async function renderMedia(spec: MediaSpec): Promise<MediaBytes> {
  const bytes = await cache().getOrCreate(mediaPath(spec), async () => {
    switch (spec.kind) {
      case "image":
        return renderImage(spec.seed, spec.width, spec.height, spec.index, spec.format);
      case "video":
        return renderMp4(spec.width, spec.height, spec.durationMs);
      case "audio":
        return renderWav(spec.seed, spec.durationMs, spec.style);
      case "mesh":
        return renderGlb(spec.seed);
    }
  });
  return { bytes, contentType: contentTypeOf(spec) };
}

/**
 * The bytes behind one of the simulator's links, read in-process (re-hosting a result); null for any
 * other URL, or a link that is forged or expired. Any origin: the signature (not the host) proves the
 * link is ours, so links issued under an earlier APP_URL still resolve. Needs no provider instance.
 */
export async function readMediaLink(url: string, nowSeconds = Math.floor(Date.now() / 1000)): Promise<MediaBytes | null> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (!parsed.pathname.startsWith(MEDIA_PREFIX)) return null;
  const check = checkMediaLink(parsed.pathname, parsed.searchParams, nowSeconds);
  if (!check.ok) return null;
  return renderMedia(check.spec);
}
