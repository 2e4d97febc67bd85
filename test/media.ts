import sharp from "sharp";

/**
 * Real file bytes for upload and re-hosting tests: images encoded by sharp, and minimal but
 * well-formed headers for the audio and video containers (what magic-number sniffing reads).
 */
export async function image(format: "png" | "jpeg" | "webp" | "gif" | "avif", size = 8, seed = 0): Promise<Buffer> {
  const base = sharp({ create: { width: size, height: size, channels: 3, background: { r: (seed * 37) % 256, g: 90, b: 200 } } });
  return base.toFormat(format).toBuffer();
}

const u32be = (n: number) => Buffer.from([(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255]);
const u32le = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(n);
  return b;
};
const u16le = (n: number) => {
  const b = Buffer.alloc(2);
  b.writeUInt16LE(n);
  return b;
};

/** An ISO-BMFF `ftyp` box (mp4, m4a, heic) followed by an empty `mdat`. */
export function isoBmff(major: string, compatible: string[], padding = 64): Buffer {
  const body = Buffer.concat([Buffer.from(major, "latin1"), u32be(0), ...compatible.map((c) => Buffer.from(c, "latin1"))]);
  const ftyp = Buffer.concat([u32be(8 + body.length), Buffer.from("ftyp"), body]);
  const mdat = Buffer.concat([u32be(8 + padding), Buffer.from("mdat"), Buffer.alloc(padding)]);
  return Buffer.concat([ftyp, mdat]);
}

export const mp4 = () => isoBmff("isom", ["isom", "iso2", "avc1", "mp41"]);
export const m4a = () => isoBmff("M4A ", ["M4A ", "mp42", "isom"]);
export const heic = () => isoBmff("heic", ["mif1", "heic"]);

/** A PCM WAV file of `dataBytes` silent bytes. */
export function wav(dataBytes = 1600): Buffer {
  const fmt = Buffer.concat([Buffer.from("fmt "), u32le(16), u16le(1), u16le(1), u32le(8000), u32le(16000), u16le(2), u16le(16)]);
  const data = Buffer.concat([Buffer.from("data"), u32le(dataBytes), Buffer.alloc(dataBytes)]);
  return Buffer.concat([Buffer.from("RIFF"), u32le(4 + fmt.length + data.length), Buffer.from("WAVE"), fmt, data]);
}

/** An ID3v2 tag followed by MPEG-1 Layer III frames. */
export function mp3(): Buffer {
  const id3 = Buffer.from([0x49, 0x44, 0x33, 0x03, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00]);
  const frame = Buffer.concat([Buffer.from([0xff, 0xfb, 0x90, 0x64]), Buffer.alloc(413)]);
  return Buffer.concat([id3, frame, frame, frame]);
}

export function flac(): Buffer {
  const streamInfo = Buffer.concat([Buffer.from([0x80, 0x00, 0x00, 0x22]), Buffer.alloc(34)]);
  return Buffer.concat([Buffer.from("fLaC"), streamInfo, Buffer.alloc(64)]);
}

/** An Ogg page carrying a Vorbis (or Opus) identification header. */
export function ogg(codec: "vorbis" | "opus" = "vorbis"): Buffer {
  const packet =
    codec === "opus"
      ? Buffer.concat([Buffer.from("OpusHead"), Buffer.alloc(11)])
      : Buffer.concat([Buffer.from([1]), Buffer.from("vorbis"), Buffer.alloc(23)]);
  const header = Buffer.concat([
    Buffer.from("OggS"),
    Buffer.from([0, 2]),
    Buffer.alloc(8),
    u32le(1),
    u32le(0),
    u32le(0),
    Buffer.from([1, packet.length]),
  ]);
  return Buffer.concat([header, packet, Buffer.alloc(32)]);
}

/** An EBML header with DocType `webm`. */
export function webm(): Buffer {
  const el = (id: number[], data: Buffer) => Buffer.concat([Buffer.from(id), Buffer.from([0x80 | data.length]), data]);
  const one = (v: number) => Buffer.from([v]);
  const header = Buffer.concat([
    el([0x42, 0x86], one(1)),
    el([0x42, 0xf7], one(1)),
    el([0x42, 0xf2], one(4)),
    el([0x42, 0xf3], one(8)),
    el([0x42, 0x82], Buffer.from("webm")),
    el([0x42, 0x87], one(4)),
    el([0x42, 0x85], one(2)),
  ]);
  return Buffer.concat([Buffer.from([0x1a, 0x45, 0xdf, 0xa3, 0x80 | header.length]), header, Buffer.from([0x18, 0x53, 0x80, 0x67, 0x80])]);
}

/** A Windows executable's DOS header. */
export function exe(): Buffer {
  const b = Buffer.alloc(512);
  b.write("MZ", 0, "latin1");
  b.writeUInt32LE(0x80, 0x3c);
  b.write("PE\0\0", 0x80, "latin1");
  return b;
}

/** multipart/form-data with one file part; `contentType` null sends the part without a type. */
export function multipart(
  file: Uint8Array,
  options: { field?: string; filename?: string; contentType?: string | null; extraFields?: Record<string, string> } = {},
) {
  const boundary = `----gwtest${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(options.extraFields ?? {})) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  const type = options.contentType === undefined ? "application/octet-stream" : options.contentType;
  parts.push(
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${options.field ?? "file"}"; filename="${options.filename ?? "file.bin"}"\r\n` +
        (type === null ? "" : `Content-Type: ${type}\r\n`) +
        "\r\n",
    ),
    Buffer.from(file),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  );
  return { body: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** Mean absolute difference per channel (0–255) inside a box of two equally sized square RGB rasters. */
export function meanDiff(a: Buffer, b: Buffer, side: number, box: { left: number; top: number; width: number; height: number }): number {
  let sum = 0;
  let n = 0;
  for (let y = box.top; y < box.top + box.height; y++) {
    for (let x = box.left; x < box.left + box.width; x++) {
      const i = (y * side + x) * 3;
      for (let c = 0; c < 3; c++) sum += Math.abs(a[i + c]! - b[i + c]!);
      n += 3;
    }
  }
  return sum / n;
}
