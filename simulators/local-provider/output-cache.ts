import { settling, valueOf, type Settling } from "@/lib/core/settling";
import type { MediaLinkIssuer } from "./media-url";
import { buildOutput, simulatedModelFailure, type BuiltOutput } from "./outputs";
import { completesAt, failureOf, runMsOf, type TimelineRow } from "./timeline";

const LINK_LIFETIME_SECONDS = 24 * 60 * 60;

export type OutputCacheOptions = {
  now: () => number;
  /** Outputs kept at most (the oldest is dropped); unbounded when the owner prunes them itself. */
  maxTracked?: number;
  /** Who signs the media links, asked at build time (default: the app's simulator under APP_URL). */
  links?: () => MediaLinkIssuer;
};

/**
 * A simulated request's output, built once: the result fetch and the webhook share it, and
 * building renders media. Both simulators (the local provider and the fal-protocol one) keep one.
 * A build that throws is forgotten, so the next fetch tries again. What is kept is the built
 * value (a promise only while building): see lib/settling.ts.
 */
export class OutputCache {
  private readonly outputs = new Map<string, Settling<BuiltOutput>>();

  constructor(private readonly options: OutputCacheOptions) {}

  get(r: TimelineRow & { id: string; category?: string | null }): Promise<BuiltOutput> {
    const known = this.outputs.get(r.id);
    if (known) return valueOf(known);
    const failure = failureOf(r);
    const end = completesAt(r) ?? this.options.now();
    const built =
      failure?.mode === "generation"
        ? Promise.resolve(simulatedModelFailure(failure.errorType))
        : buildOutput({
            providerRequestId: r.id,
            endpointId: r.endpointId,
            category: r.category ?? null,
            input: r.input,
            linksExpireAt: Math.floor(end / 1000) + LINK_LIFETIME_SECONDS,
            inferenceMs: runMsOf(r),
            ...(this.options.links ? { links: this.options.links() } : {}),
          });
    const entry = settling(built, () => this.outputs.get(r.id) === entry && this.outputs.delete(r.id));
    this.outputs.set(r.id, entry);
    const max = this.options.maxTracked ?? Infinity;
    if (this.outputs.size > max) this.outputs.delete(this.outputs.keys().next().value!);
    return built;
  }

  delete(id: string): void {
    this.outputs.delete(id);
  }
}
