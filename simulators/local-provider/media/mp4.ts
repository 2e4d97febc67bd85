import loops from "./video-loops.json";

/**
 * A real, playable MP4 (H.264 baseline, no audio) of any duration, written box by box.
 *
 * The picture data is a one-second animation loop per aspect ratio (an IDR frame and eleven P
 * frames, 12 fps), encoded once with x264 and committed as `video-loops.json` (SPS, PPS and the
 * frames' NAL units, base64). Every loop starts on an IDR frame, so repeating it any number of
 * times and cutting the last one short is a valid stream; the container just lists the samples.
 */
type Loop = { width: number; height: number; fps: number; sps: string; pps: string; frames: string[] };
const LOOPS = loops as Record<string, Loop>;

export type VideoSize = { width: number; height: number };
export const VIDEO_SIZES: Record<"16:9" | "9:16" | "1:1", VideoSize> = {
  "16:9": { width: 320, height: 180 },
  "9:16": { width: 180, height: 320 },
  "1:1": { width: 240, height: 240 },
};

const decoded = new Map<string, { sps: Buffer; pps: Buffer; frames: Buffer[]; fps: number; width: number; height: number }>();
function loopFor(width: number, height: number) {
  const key = `${width}x${height}`;
  let d = decoded.get(key);
  if (!d) {
    const l = LOOPS[key];
    if (!l) throw new Error(`no video loop for ${key}`);
    d = {
      ...l,
      sps: Buffer.from(l.sps, "base64"),
      pps: Buffer.from(l.pps, "base64"),
      frames: l.frames.map((f) => Buffer.from(f, "base64")),
    };
    decoded.set(key, d);
  }
  return d;
}

const u8 = (n: number) => Buffer.from([n & 0xff]);
const u16 = (n: number) => {
  const b = Buffer.alloc(2);
  b.writeUInt16BE(n);
  return b;
};
const u32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n >>> 0);
  return b;
};
const zeros = (n: number) => Buffer.alloc(n);
const box = (type: string, ...parts: Buffer[]) => {
  const body = Buffer.concat(parts);
  return Buffer.concat([u32(8 + body.length), Buffer.from(type, "latin1"), body]);
};
const fullBox = (type: string, version: number, flags: number, ...parts: Buffer[]) =>
  box(type, u8(version), u8(flags >> 16), u16(flags & 0xffff), ...parts);
// Identity transformation matrix (16.16 and 2.30 fixed point).
const MATRIX = Buffer.concat([u32(0x00010000), u32(0), u32(0), u32(0), u32(0x00010000), u32(0), u32(0), u32(0), u32(0x40000000)]);

export function renderMp4(width: number, height: number, durationMs: number): Uint8Array {
  const loop = loopFor(width, height);
  const count = Math.max(1, Math.round((durationMs / 1000) * loop.fps));
  const samples = Array.from({ length: count }, (_, i) => {
    const nal = loop.frames[i % loop.frames.length]!;
    return Buffer.concat([u32(nal.length), nal]); // AVCC: 4-byte length prefix
  });
  const timescale = loop.fps * 1000;
  const delta = 1000;
  const mediaDuration = count * delta;
  const movieDuration = Math.round((count * 1000) / loop.fps); // movie timescale 1000 (ms)

  const avcC = box(
    "avcC",
    u8(1),
    loop.sps.subarray(1, 4), // profile, compatibility, level
    u8(0xff), // 4-byte NAL lengths
    u8(0xe1), // one SPS
    u16(loop.sps.length),
    loop.sps,
    u8(1), // one PPS
    u16(loop.pps.length),
    loop.pps,
  );
  const avc1 = box(
    "avc1",
    zeros(6),
    u16(1), // data reference index
    zeros(16),
    u16(width),
    u16(height),
    u32(0x00480000), // 72 dpi
    u32(0x00480000),
    zeros(4),
    u16(1), // frames per sample
    zeros(32), // compressor name
    u16(0x0018),
    u16(0xffff),
    avcC,
  );
  const syncSamples = samples.map((_, i) => i).filter((i) => i % loop.frames.length === 0);
  const stbl = (chunkOffset: number) =>
    box(
      "stbl",
      fullBox("stsd", 0, 0, u32(1), avc1),
      fullBox("stts", 0, 0, u32(1), u32(count), u32(delta)),
      fullBox("stss", 0, 0, u32(syncSamples.length), ...syncSamples.map((i) => u32(i + 1))),
      fullBox("stsc", 0, 0, u32(1), u32(1), u32(count), u32(1)),
      fullBox("stsz", 0, 0, u32(0), u32(count), ...samples.map((s) => u32(s.length))),
      fullBox("stco", 0, 0, u32(1), u32(chunkOffset)),
    );
  const moov = (chunkOffset: number) =>
    box(
      "moov",
      fullBox(
        "mvhd",
        0,
        0,
        u32(0),
        u32(0),
        u32(1000),
        u32(movieDuration),
        u32(0x00010000),
        u16(0x0100),
        zeros(10),
        MATRIX,
        zeros(24),
        u32(2),
      ),
      box(
        "trak",
        fullBox(
          "tkhd",
          0,
          3,
          u32(0),
          u32(0),
          u32(1),
          zeros(4),
          u32(movieDuration),
          zeros(8),
          u16(0),
          u16(0),
          u16(0),
          zeros(2),
          MATRIX,
          u32(width << 16),
          u32(height << 16),
        ),
        box(
          "mdia",
          fullBox("mdhd", 0, 0, u32(0), u32(0), u32(timescale), u32(mediaDuration), u16(0x55c4), u16(0)), // language "und"
          fullBox("hdlr", 0, 0, u32(0), Buffer.from("vide"), zeros(12), Buffer.from("VideoHandler\0")),
          box(
            "minf",
            fullBox("vmhd", 0, 1, zeros(8)),
            box("dinf", fullBox("dref", 0, 0, u32(1), fullBox("url ", 0, 1))),
            stbl(chunkOffset),
          ),
        ),
      ),
    );
  const ftyp = box("ftyp", Buffer.from("isom"), u32(0x200), Buffer.from("isomiso2avc1mp41"));
  // moov's size does not depend on the offset's value, so measure it once, then write it for real.
  const offset = ftyp.length + moov(0).length + 8;
  const mdat = box("mdat", ...samples);
  return Buffer.concat([ftyp, moov(offset), mdat]);
}

/** Duration and size a player would report, for tests and the output's `duration`. */
export function mp4FrameCount(durationMs: number, fps = 12): number {
  return Math.max(1, Math.round((durationMs / 1000) * fps));
}
