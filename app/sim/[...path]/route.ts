import { simOperations } from "@/lib/http/contracts/sim";
import { withGateway } from "@/lib/http/handler";
import { notFound } from "@/lib/core/errors";
import { checkMediaLink, renderMedia } from "@/simulators/local-provider/media-url";
import { otherMethodsOf } from "@/lib/http/unknown-route";

/**
 * The simulator's media links (`passthrough=1` results point here, like fal's CDN links do):
 * bytes rendered on demand from what the signed link names, cached, and served with range
 * support so browsers can seek in video and audio. Invalid, tampered or expired links are 404.
 */
async function serve(req: Request, url: URL): Promise<Response> {
  const check = checkMediaLink(url.pathname, url.searchParams);
  if (!check.ok) throw notFound("Media");
  const { bytes, contentType } = await renderMedia(check.spec);
  const total = bytes.byteLength;
  const headers: Record<string, string> = {
    "Content-Type": contentType,
    "Accept-Ranges": "bytes",
    // The link names its content and expires by itself: the bytes never change.
    "Cache-Control": "public, max-age=86400, immutable",
    ETag: `"${check.spec.kind}-${url.pathname.split("/").slice(3).join("-")}"`,
  };
  const range = parseRange(req.headers.get("range"), total);
  const head = req.method === "HEAD";
  if (range === "unsatisfiable") {
    return new Response(null, { status: 416, headers: { ...headers, "Content-Range": `bytes */${total}` } });
  }
  if (range) {
    const [start, end] = range;
    const part = bytes.subarray(start, end + 1);
    return new Response(head ? null : (part as Uint8Array<ArrayBuffer>), {
      status: 206,
      headers: { ...headers, "Content-Range": `bytes ${start}-${end}/${total}`, "Content-Length": String(part.byteLength) },
    });
  }
  return new Response(head ? null : (bytes as Uint8Array<ArrayBuffer>), { headers: { ...headers, "Content-Length": String(total) } });
}

/** A single `bytes=a-b` / `a-` / `-n` range; anything else is served whole. */
function parseRange(header: string | null, total: number): [number, number] | "unsatisfiable" | null {
  const m = header ? /^bytes=(\d*)-(\d*)$/.exec(header.trim()) : null;
  if (!m || (m[1] === "" && m[2] === "")) return null;
  let start: number;
  let end: number;
  if (m[1] === "") {
    start = Math.max(0, total - Number(m[2]));
    end = total - 1;
  } else {
    start = Number(m[1]);
    end = m[2] === "" ? total - 1 : Math.min(total - 1, Number(m[2]));
  }
  if (start >= total || start > end) return "unsatisfiable";
  return [start, end];
}

// GET /sim/{kind}/… – media produced by the local simulator provider
// The link is checked as a whole (a bad one is 404): its segments and signature are read by serve().
export const GET = withGateway(simOperations.getSimulatedMedia, ({ req, url }) => serve(req, url), { raw: ["params", "query"] });
// HEAD /sim/{kind}/… – headers only
export const HEAD = GET;

// Any other method – 405 method_not_allowed with Allow; OPTIONS – 204 with Allow
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethodsOf({ GET, HEAD });
