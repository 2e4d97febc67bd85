import { Readable, Transform } from "node:stream";
import type { ReadableStream as NodeWebReadableStream } from "node:stream/web";
import busboy from "busboy";
import { DomainError, isDomainError } from "@/lib/core/errors";

export type IncomingFile = {
  stream: Readable;
  /** The part's Content-Type as sent (`text/plain` when the part had none). */
  declaredType: string | null;
  filename: string | null;
};

/** Room for the multipart envelope and small fields around the file. */
export const MULTIPART_OVERHEAD_BYTES = 1024 * 1024;

export const tooLarge = (maxBytes: number) =>
  new DomainError("asset_too_large", `The file is larger than the upload limit of ${maxBytes} bytes`, { limitBytes: maxBytes });

const missingFile = () =>
  new DomainError("invalid_body", "Send the file in a multipart field named `file`", {
    issues: [{ path: ["file"], message: "Required" }],
  });

export const isMultipart = (contentType: string | null) => /^multipart\/form-data\s*;/i.test(contentType ?? "");

/**
 * Streams the multipart field `file` of a request into `onFile`, without buffering the body.
 * The whole request is capped at maxBytes plus the envelope allowance: a larger declared
 * Content-Length is refused unread, and a larger streamed body is cut off where it passes the
 * cap (the request stream is cancelled, so nothing more is read).
 */
export async function readMultipartFile<T>(req: Request, maxBytes: number, onFile: (file: IncomingFile) => Promise<T>): Promise<T> {
  const contentType = req.headers.get("content-type");
  if (!isMultipart(contentType)) {
    throw new DomainError("unsupported_media_type", "Send the upload as multipart/form-data with a `file` field");
  }
  const cap = maxBytes + MULTIPART_OVERHEAD_BYTES;
  const declared = Number(req.headers.get("content-length") ?? NaN);
  if (declared > cap) throw tooLarge(maxBytes);
  if (!req.body) throw missingFile();

  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: { "content-type": contentType! },
      limits: { fileSize: maxBytes + 1, files: 5, fields: 20, fieldSize: 64 * 1024, parts: 30, headerPairs: 50 },
    });
  } catch {
    throw new DomainError("invalid_body", "Malformed multipart/form-data Content-Type (no boundary)");
  }

  const source = Readable.fromWeb(req.body as unknown as NodeWebReadableStream);
  let seen = 0;
  const meter = new Transform({
    transform(chunk: Buffer, _enc, done) {
      seen += chunk.byteLength;
      done(seen > cap ? tooLarge(maxBytes) : null, chunk);
    },
  });

  return new Promise<T>((resolve, reject) => {
    let settled = false;
    let fileSeen = false;
    const stop = () => {
      source.unpipe(meter);
      meter.unpipe(parser);
      source.destroy();
      parser.destroy();
    };
    let inflight: Promise<unknown> | null = null;
    const fail = (err: unknown) => {
      if (settled) return;
      settled = true;
      stop();
      // Answer only once the file handler has cleaned up (its spool file is removed).
      void (inflight ?? Promise.resolve()).catch(() => {}).then(() => reject(err));
    };
    const done = (value: T) => {
      if (settled) return;
      settled = true;
      if (!source.readableEnded) stop();
      resolve(value);
    };

    parser.on("file", (name, stream, info) => {
      if (name !== "file" || fileSeen) {
        stream.resume();
        return;
      }
      fileSeen = true;
      inflight = onFile({ stream, declaredType: info.mimeType || null, filename: info.filename || null });
      inflight.then((value) => done(value as T), fail);
    });
    parser.on("close", () => {
      if (!fileSeen) fail(missingFile());
    });
    parser.on("error", (err) => fail(isDomainError(err) ? err : new DomainError("invalid_body", "Malformed multipart body")));
    meter.on("error", fail);
    source.on("error", (err) => fail(isDomainError(err) ? err : new DomainError("invalid_body", "The upload was interrupted")));
    source.pipe(meter).pipe(parser);
  });
}
