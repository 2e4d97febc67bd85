import { env } from "@/lib/core/env";
import { processWide } from "@/lib/core/process-wide";
import type { ProviderName } from "./types";

/**
 * Providers that refused a submit recently (429, 5xx, a timeout before acceptance, an open
 * breaker): for PROVIDER_COOLDOWN_MS each is tried after a model's other routes, not before them
 * (LiteLLM's cooldown, OpenRouter's "skip providers with a recent outage"). It only reorders: a
 * provider cooling down is still tried when no other route is left, so a cooldown alone never
 * refuses a job. Per process, like the circuit breakers; shown in /health and /metrics.
 */
type Cooling = { until: number; reason: string };

const cooling = processWide("provider.cooldowns", () => new Map<ProviderName, Cooling>());

export function coolDown(provider: ProviderName, reason: string, now = Date.now()): void {
  cooling.set(provider, { until: now + env().PROVIDER_COOLDOWN_MS, reason });
}

/** Milliseconds left of the provider's cooldown; 0 when it is not cooling down. */
export function cooldownLeftMs(provider: ProviderName, now = Date.now()): number {
  const c = cooling.get(provider);
  if (!c) return 0;
  if (c.until <= now) {
    cooling.delete(provider);
    return 0;
  }
  return c.until - now;
}

export type CooldownSnapshot = { provider: ProviderName; retryAfterMs: number; reason: string };

export function cooldownSnapshots(now = Date.now()): CooldownSnapshot[] {
  return [...cooling]
    .filter(([provider]) => cooldownLeftMs(provider, now) > 0)
    .map(([provider, c]) => ({ provider, retryAfterMs: c.until - now, reason: c.reason }));
}

/** Tests. */
export const resetCooldowns = () => cooling.clear();
