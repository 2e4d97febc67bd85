import { DomainError } from "@/lib/core/errors";

/**
 * The one body reader: every route reads its body through this (readJson, uploads sent as JSON,
 * webhooks, /api/inngest). It keeps at most `maxBytes` in memory and refuses the body with 413
 * payload_too_large as soon as it passes them: a declared Content-Length over the cap is refused
 * unread, and a chunked body is read no further than the chunk that crosses the cap.
 */
export async function readBodyBytes(req: Request, maxBytes: number): Promise<Uint8Array<ArrayBuffer>> {
  const declared = Number(req.headers.get("content-length") ?? NaN);
  if (declared > maxBytes) throw tooLarge(maxBytes);
  if (!req.body) return new Uint8Array(0);
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => {});
      throw tooLarge(maxBytes);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

/**
 * The cap of a body read before its sender is known (incoming webhooks, Inngest's sync): 1 MiB,
 * whatever MAX_BODY_BYTES says. Providers' completion and payment notifications are a few
 * kilobytes (media travel as links), so anything larger is refused without being kept.
 */
export const UNVERIFIED_BODY_MAX_BYTES = 1024 * 1024;

const tooLarge = (maxBytes: number) => new DomainError("payload_too_large", `Request body is larger than ${maxBytes} bytes`);
