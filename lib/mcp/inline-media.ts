import type { ServiceContext } from "@/lib/auth/context";
import type { ContentBlock } from "@modelcontextprotocol/server";
import { and, eq } from "drizzle-orm";
import { assets } from "@/db/schema";
import { findMediaUrls } from "@/lib/assets/media-refs";
import type { GenerationRow } from "@/lib/generation";
import { log } from "@/lib/core/logger";
import { currentStorage } from "@/lib/storage";

/**
 * A result's files as MCP content a client can show or hand to its model: images as `image`
 * blocks and sound as `audio` blocks, base64 in the message. Only what is small travels inline
 * (each file up to INLINE_FILE_BYTES, together up to INLINE_TOTAL_BYTES); everything is also a
 * link in the text, and video and 3D only ever are (MCP has no block for them).
 */
const INLINE_FILE_BYTES = 1024 * 1024;
const INLINE_TOTAL_BYTES = 3 * 1024 * 1024;
const INLINE_IMAGE_TYPES = new Set(["image/png", "image/jpeg", "image/webp", "image/gif"]);

const inlineKind = (type: string | null): "image" | "audio" | null =>
  type && INLINE_IMAGE_TYPES.has(type) ? "image" : type?.startsWith("audio/") ? "audio" : null;

export type MediaFile = { url: string; contentType: string | null; sizeBytes: number | null };

/** The result's media links, in the order the output lists them, with type and size where stored. */
export async function resultMedia(ctx: ServiceContext, row: GenerationRow): Promise<{ files: MediaFile[]; blocks: ContentBlock[] }> {
  const urls = findMediaUrls(row.output ?? {});
  if (urls.length === 0) return { files: [], blocks: [] };
  const stored = await ctx.db
    .select({ publicUrl: assets.publicUrl, s3Key: assets.s3Key, contentType: assets.contentType, sizeBytes: assets.sizeBytes })
    .from(assets)
    .where(and(eq(assets.generationId, row.id), eq(assets.userId, ctx.principal.userId), eq(assets.status, "stored")));
  const byUrl = new Map(stored.map((a) => [a.publicUrl, a]));
  const files = urls.map((url) => ({
    url,
    contentType: byUrl.get(url)?.contentType ?? null,
    sizeBytes: byUrl.get(url)?.sizeBytes ?? null,
  }));
  const blocks: ContentBlock[] = [];
  let total = 0;
  for (const url of urls) {
    const asset = byUrl.get(url);
    const kind = inlineKind(asset?.contentType ?? null);
    const size = asset?.sizeBytes ?? Infinity;
    if (!asset || !kind || size > INLINE_FILE_BYTES || total + size > INLINE_TOTAL_BYTES) continue;
    const data = await readObject(asset.s3Key);
    if (!data) continue;
    total += size;
    blocks.push({ type: kind, data: data.toString("base64"), mimeType: asset.contentType! });
  }
  return { files, blocks };
}

/** The stored bytes, or null when storage cannot give them (the link still works, or says why). */
async function readObject(key: string): Promise<Buffer | null> {
  try {
    const object = await currentStorage()?.get(key);
    if (!object) return null;
    return Buffer.concat((await object.body.toArray()) as Buffer[]);
  } catch (error) {
    log.warn("result file not inlined in the MCP answer", { key, error });
    return null;
  }
}
