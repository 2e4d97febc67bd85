import { fileTypeFromBuffer } from "file-type";
import sharp from "sharp";
import { log } from "@/lib/core/logger";
import { safeFetch } from "@/lib/net";
import { contentTypeForKey, OCTET_STREAM } from "@/lib/storage/media-types";
import type { Prediction } from "./schemas";

/**
 * A succeeded prediction's output in the spec's result shapes. Replicate returns whatever the
 * model's output schema says (FLUX: a list of URIs; most video and audio models: one URI; language
 * models: a list of text tokens), so files are told apart by their bytes: the first 64 KB of each
 * are read (a range request, under the outbound URL rules) for the type, an image's size and a
 * WAV's duration. Images go to `images[]` ({url, content_type, width, height, file_size}), one
 * video to `video`, one audio file to `audio`, other files to `files[]`; text to `text`, numbers to
 * `embedding`. An object output keeps its fields, each URI in it becoming a file object. The URLs
 * stay Replicate's: the engine re-hosts them (collect) well before Replicate deletes them (an hour).
 */
export type FileFacts = { contentType: string; sizeBytes: number | null; width?: number; height?: number; duration?: number };
export type ReadHead = (url: string) => Promise<{ head: Uint8Array; contentType: string | null; sizeBytes: number | null } | null>;

const HEAD_BYTES = 64 * 1024;
const isFileUrl = (v: unknown): v is string => typeof v === "string" && /^(https?:\/\/|data:)/i.test(v);

export async function outputOf(prediction: Prediction, readHead: ReadHead = readHeadOverNetwork): Promise<Record<string, unknown>> {
  const out = prediction.output;
  const extras: Record<string, unknown> = {};
  const seed = prediction.input?.seed ?? seedFromLogs(prediction.logs);
  if (typeof seed === "number" && Number.isInteger(seed)) extras.seed = seed;
  const predictTime = prediction.metrics?.predict_time;
  if (typeof predictTime === "number") extras.timings = { inference: predictTime };
  if (isFileUrl(out)) return { ...(await filesResult([out], readHead)), ...extras };
  if (Array.isArray(out) && out.length > 0 && out.every(isFileUrl)) return { ...(await filesResult(out, readHead)), ...extras };
  if (typeof out === "string") return { text: out, ...extras };
  if (Array.isArray(out) && out.every((v) => typeof v === "string")) return { text: out.join(""), ...extras };
  if (Array.isArray(out) && out.length > 0 && out.every((v) => typeof v === "number")) return { embedding: out, ...extras };
  if (out && typeof out === "object" && !Array.isArray(out))
    return { ...(await objectResult(out as Record<string, unknown>, readHead)), ...extras };
  return { output: out ?? null, ...extras };
}

async function filesResult(urls: string[], readHead: ReadHead): Promise<Record<string, unknown>> {
  const files = await Promise.all(urls.map(async (url) => fileObject(url, await factsOf(url, readHead))));
  const family = (f: Record<string, unknown>) => String(f.content_type).split("/")[0];
  const images = files.filter((f) => family(f) === "image");
  const videos = files.filter((f) => family(f) === "video");
  const audios = files.filter((f) => family(f) === "audio");
  const result: Record<string, unknown> = {};
  if (images.length) result.images = images;
  if (videos.length) result.video = videos[0];
  if (audios.length) result.audio = audios[0];
  const rest = files.filter((f) => !images.includes(f) && f !== videos[0] && f !== audios[0]);
  if (rest.length) result.files = rest;
  return result;
}

/** An object output: URIs become file objects (`{url, content_type, …}`), so re-hosting finds them. */
async function objectResult(out: Record<string, unknown>, readHead: ReadHead): Promise<Record<string, unknown>> {
  const entries = await Promise.all(
    Object.entries(out).map(async ([key, value]): Promise<[string, unknown]> => {
      if (isFileUrl(value)) return [key, fileObject(value, await factsOf(value, readHead))];
      if (Array.isArray(value) && value.length > 0 && value.every(isFileUrl)) {
        return [key, await Promise.all(value.map(async (url) => fileObject(url, await factsOf(url, readHead))))];
      }
      return [key, value];
    }),
  );
  return Object.fromEntries(entries);
}

function fileObject(url: string, facts: FileFacts): Record<string, unknown> {
  return {
    url,
    content_type: facts.contentType,
    ...(facts.width && facts.height ? { width: facts.width, height: facts.height } : {}),
    ...(facts.duration != null ? { duration: facts.duration } : {}),
    ...(facts.sizeBytes != null ? { file_size: facts.sizeBytes } : {}),
  };
}

/** What a file is, from its first bytes (else from its name). */
export async function factsOf(url: string, readHead: ReadHead): Promise<FileFacts> {
  let read: Awaited<ReturnType<ReadHead>> = null;
  try {
    read = await readHead(url);
  } catch (err) {
    log.warn("could not read the head of a Replicate output", { url: url.slice(0, 200), error: String(err) });
  }
  const byName = contentTypeForKey(new URL(url.startsWith("data:") ? "http://x/" : url).pathname);
  if (!read) return { contentType: byName, sizeBytes: null };
  const detected = await fileTypeFromBuffer(read.head).catch(() => undefined);
  const contentType = detected?.mime ?? (read.contentType && read.contentType !== OCTET_STREAM ? read.contentType : byName);
  const facts: FileFacts = { contentType, sizeBytes: read.sizeBytes };
  if (contentType.startsWith("image/")) Object.assign(facts, await imageSize(read.head));
  if (contentType === "audio/wav" || contentType === "audio/x-wav" || contentType === "audio/vnd.wave") {
    const duration = wavDuration(read.head);
    if (duration != null) facts.duration = duration;
  }
  return facts;
}

async function imageSize(head: Uint8Array): Promise<{ width?: number; height?: number }> {
  try {
    const meta = await sharp(head, { failOn: "none" }).metadata();
    return meta.width && meta.height ? { width: meta.width, height: meta.height } : {};
  } catch {
    return {};
  }
}

/** Seconds of a PCM WAV, from its `fmt ` byte rate and its `data` chunk's size. */
export function wavDuration(head: Uint8Array): number | null {
  const b = Buffer.from(head.buffer, head.byteOffset, head.byteLength);
  if (b.length < 12 || b.toString("ascii", 0, 4) !== "RIFF" || b.toString("ascii", 8, 12) !== "WAVE") return null;
  let byteRate = 0;
  for (let at = 12; at + 8 <= b.length;) {
    const id = b.toString("ascii", at, at + 4);
    const size = b.readUInt32LE(at + 4);
    if (id === "fmt " && at + 16 <= b.length) byteRate = b.readUInt32LE(at + 16);
    if (id === "data") return byteRate > 0 ? Math.round((size / byteRate) * 1000) / 1000 : null;
    at += 8 + size + (size % 2);
  }
  return null;
}

function seedFromLogs(logs: string | null | undefined): number | undefined {
  const m = /seed[:=]\s*(\d{1,18})/i.exec(logs ?? "");
  return m ? Number(m[1]) : undefined;
}

/** The first 64 KB of a file: decoded from a data URL, or a range request under the outbound URL rules. */
export async function readHeadOverNetwork(url: string): ReturnType<ReadHead> {
  if (url.startsWith("data:")) {
    const m = /^data:([^;,]*)(;base64)?,(.*)$/is.exec(url);
    if (!m) return null;
    const bytes = m[2] ? Buffer.from(m[3]!, "base64") : Buffer.from(decodeURIComponent(m[3]!));
    return { head: bytes.subarray(0, HEAD_BYTES), contentType: m[1] || null, sizeBytes: bytes.byteLength };
  }
  const res = await safeFetch(url, {
    headers: { range: `bytes=0-${HEAD_BYTES - 1}` },
    maxBytes: Number.MAX_SAFE_INTEGER,
    timeoutMs: 15_000,
  });
  try {
    if (res.status !== 200 && res.status !== 206) return null;
    const chunks: Buffer[] = [];
    let got = 0;
    for await (const chunk of res.body) {
      chunks.push(chunk as Buffer);
      got += (chunk as Buffer).length;
      if (got >= HEAD_BYTES) break;
    }
    const total =
      /\/(\d+)$/.exec(String(res.headers["content-range"] ?? ""))?.[1] ?? (res.status === 200 ? res.headers["content-length"] : undefined);
    return {
      head: Buffer.concat(chunks).subarray(0, HEAD_BYTES),
      contentType:
        String(res.headers["content-type"] ?? "")
          .split(";")[0]!
          .trim() || null,
      sizeBytes: total != null && /^\d+$/.test(String(total)) ? Number(total) : null,
    };
  } finally {
    res.discard();
  }
}
