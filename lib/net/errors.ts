import { brand } from "@/lib/core/brand";

export type OutboundErrorCode =
  "invalid_url" | "blocked_address" | "dns_failure" | "too_many_redirects" | "too_large" | "timeout" | "network" | "bad_status";

/**
 * Why an outbound fetch was refused or failed. Callers record `code` (re-hosting writes it into
 * the asset's `error`), so it is stable; the message is for humans.
 */
export class OutboundError extends Error {
  constructor(
    readonly code: OutboundErrorCode,
    message: string,
    /** The HTTP status, for `bad_status`. */
    readonly status?: number,
  ) {
    super(message);
    this.name = "OutboundError";
  }
}

const outboundErrors = brand<OutboundError>("outbound-error");
outboundErrors.mark(OutboundError);
export const isOutboundError = outboundErrors.is;
