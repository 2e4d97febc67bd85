import { Readable } from "node:stream";
import { notFound } from "@/lib/core/errors";
import { renderError } from "./render";
import { OCTET_STREAM } from "@/lib/storage/media-types";
import { parseRangeHeader } from "@/lib/storage/range";
import { isRangeNotSatisfiable, type ObjectRead, type ObjectStorage, type RangeRequest } from "@/lib/storage/types";

/**
 * Headers for a stored file served from the app's own origin. The key of a file never changes
 * and never gets new bytes, so it is cached for a year as immutable. Nothing served here may run
 * as a page: nosniff, and a CSP that sandboxes the document and allows only its own media.
 */
const FILE_HEADERS = {
  "Accept-Ranges": "bytes",
  "Cache-Control": "public, max-age=31536000, immutable",
  "X-Content-Type-Options": "nosniff",
  "Content-Security-Policy": "default-src 'none'; img-src 'self'; media-src 'self'; style-src 'unsafe-inline'; sandbox",
  "Cross-Origin-Resource-Policy": "cross-origin",
  "Access-Control-Allow-Origin": "*",
};

const etagMatches = (header: string | null, etag: string | null) =>
  !!header && !!etag && (header.trim() === "*" || header.split(",").some((t) => t.trim().replace(/^W\//, "") === etag));

/** GET/HEAD of a stored object with ranges and conditional requests; 404 when it does not exist. */
export async function serveObject(req: Request, key: string, storage: ObjectStorage | null, requestId: string): Promise<Response> {
  const missing = () => {
    const res = renderError("gateway", notFound("File"), requestId);
    res.headers.set("Cache-Control", "no-store");
    return res;
  };
  if (!storage) return missing();
  let range: RangeRequest | undefined = parseRangeHeader(req.headers.get("range"));
  const ifRange = req.headers.get("if-range");
  if (range && ifRange) {
    const info = await storage.head(key);
    if (!info) return missing();
    // A Range is honoured only while the client's copy is still this object.
    if (!etagMatches(ifRange, info.etag) && ifRange !== info.lastModified?.toUTCString()) range = undefined;
  }

  let object: ObjectRead | null;
  try {
    object = await storage.get(key, range);
  } catch (err) {
    if (!isRangeNotSatisfiable(err)) throw err;
    return new Response(null, {
      status: 416,
      headers: { ...FILE_HEADERS, "Content-Range": `bytes */${err.totalBytes}`, "X-Request-ID": requestId },
    });
  }
  if (!object) return missing();

  const headers = new Headers({ ...FILE_HEADERS, "Content-Type": object.contentType, "X-Request-ID": requestId });
  if (object.contentType === OCTET_STREAM) headers.set("Content-Disposition", "attachment");
  if (object.etag) headers.set("ETag", object.etag);
  if (object.lastModified) headers.set("Last-Modified", object.lastModified.toUTCString());

  if (etagMatches(req.headers.get("if-none-match"), object.etag)) {
    object.body.destroy();
    return new Response(null, { status: 304, headers });
  }
  const length = object.range ? object.range.end - object.range.start + 1 : object.totalBytes;
  headers.set("Content-Length", String(length));
  if (object.range) headers.set("Content-Range", `bytes ${object.range.start}-${object.range.end}/${object.totalBytes}`);
  const status = object.range ? 206 : 200;
  if (req.method === "HEAD") {
    object.body.destroy();
    return new Response(null, { status, headers });
  }
  return new Response(Readable.toWeb(object.body) as ReadableStream, { status, headers });
}
