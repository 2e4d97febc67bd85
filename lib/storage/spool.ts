import { randomUUID } from "node:crypto";
import { createWriteStream } from "node:fs";
import { mkdir, rm } from "node:fs/promises";
import path from "node:path";
import { Transform, type Readable } from "node:stream";
import { pipeline } from "node:stream/promises";

export type Spooled = {
  /** A temp file the caller owns: store it, then remove it (`rm(path, { force: true })`). */
  path: string;
  sizeBytes: number;
  /** The first `headBytes` of the body (all of it when shorter), for type sniffing. */
  head: Buffer;
};

export type SpoolOptions = {
  dir: string;
  maxBytes: number;
  headBytes?: number;
  /** Called once with the head before anything past it is written; throwing aborts the spool. */
  onHead?: (head: Buffer) => void | Promise<void>;
  tooLarge: () => Error;
};

export const HEAD_BYTES = 64 * 1024;

/**
 * Pipes streams into a new file; on failure the file is removed and the error rethrown. The
 * removal waits for the file to be closed: the pipeline can fail before the file's asynchronous
 * open has finished (a body refused by its first bytes), and an open landing after the removal
 * would re-create the file.
 */
export async function pipeIntoFile(file: string, ...streams: [Readable, ...Transform[]]): Promise<void> {
  const sink = createWriteStream(file);
  try {
    await pipeline([...streams, sink]);
  } catch (err) {
    if (!sink.closed) await new Promise<void>((resolve) => sink.once("close", () => resolve()));
    await rm(file, { force: true });
    throw err;
  }
}

/**
 * Streams a body into a temp file with constant memory: at most the head is held, the body is
 * counted as it passes and cut off (the source destroyed, the file removed) as soon as it passes
 * `maxBytes`. Nothing beyond the limit is read.
 */
export async function spoolToFile(source: Readable, o: SpoolOptions): Promise<Spooled> {
  const headBytes = o.headBytes ?? HEAD_BYTES;
  await mkdir(o.dir, { recursive: true });
  const file = path.join(o.dir, `${randomUUID()}.part`);
  const headChunks: Buffer[] = [];
  let headLength = 0;
  let headDone = false;
  let head = Buffer.alloc(0);
  let size = 0;

  const releaseHead = async (self: Transform) => {
    headDone = true;
    head = Buffer.concat(headChunks);
    await o.onHead?.(head);
    if (head.length) self.push(head);
  };

  const meter = new Transform({
    async transform(chunk: Buffer, _enc, done) {
      try {
        size += chunk.byteLength;
        if (size > o.maxBytes) return done(o.tooLarge());
        if (headDone) return done(null, chunk);
        headChunks.push(chunk);
        headLength += chunk.byteLength;
        if (headLength >= headBytes) await releaseHead(this);
        done();
      } catch (err) {
        done(err as Error);
      }
    },
    async flush(done) {
      try {
        if (!headDone) await releaseHead(this);
        done();
      } catch (err) {
        done(err as Error);
      }
    },
  });

  await pipeIntoFile(file, source, meter);
  return { path: file, sizeBytes: size, head: head.length > headBytes ? head.subarray(0, headBytes) : head };
}
