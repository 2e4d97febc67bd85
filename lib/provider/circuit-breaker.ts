import { env } from "@/lib/core/env";
import { DomainError } from "@/lib/core/errors";
import { log } from "@/lib/core/logger";
import { observeProviderCall } from "@/lib/observability/metrics";
import { CircuitOpenError, isCircuitOpen, isProviderUnavailable, type ProviderOperation } from "./errors";
import type { ProviderName } from "./types";

export type CircuitState = "closed" | "open" | "half_open";

export type CircuitSnapshot = {
  provider: ProviderName;
  state: CircuitState;
  consecutiveFailures: number;
  /** Milliseconds until calls may go through again; 0 when they may now. */
  retryAfterMs: number;
  openedAt: number | null;
};

export type CircuitBreakerOptions = {
  /** Consecutive retryable failures that open the circuit. */
  failureThreshold: number;
  /** How long it stays open before one probe call is let through. */
  cooldownMs: number;
  now?: () => number;
};

/**
 * A per-provider circuit breaker (in-process, like Hystrix or opossum: each instance judges the
 * provider by what it sees). Closed: calls go through; `failureThreshold` consecutive retryable
 * failures (network, timeout, 429, 5xx) open it. Open: calls fail fast with `CircuitOpenError`
 * for `cooldownMs`. Then half-open: exactly one probe goes through; its success closes the
 * circuit, its failure opens it for another cooldown. A model's own failure (a 422) or a
 * rejection proves the provider is up and counts as a success.
 */
export class CircuitBreaker {
  private failures = 0;
  private openedAt: number | null = null;
  private probeStartedAt: number | null = null;
  private readonly now: () => number;

  constructor(
    readonly provider: ProviderName,
    private readonly options: CircuitBreakerOptions,
  ) {
    this.now = options.now ?? Date.now;
  }

  get state(): CircuitState {
    if (this.openedAt === null) return "closed";
    return this.now() - this.openedAt >= this.options.cooldownMs ? "half_open" : "open";
  }

  /** Milliseconds until a call may go through; 0 when one may now. */
  retryAfterMs(): number {
    const state = this.state;
    if (state === "closed") return 0;
    if (state === "open") return this.openedAt! + this.options.cooldownMs - this.now();
    // Half-open with a probe in flight: the others wait for it (at most one cooldown).
    if (this.probeInFlight()) return Math.max(1, this.probeStartedAt! + this.options.cooldownMs - this.now());
    return 0;
  }

  /** Whether a call would be let through now (does not take the probe slot). */
  canRequest(): boolean {
    return this.retryAfterMs() === 0;
  }

  snapshot(): CircuitSnapshot {
    return {
      provider: this.provider,
      state: this.state,
      consecutiveFailures: this.failures,
      retryAfterMs: this.retryAfterMs(),
      openedAt: this.openedAt,
    };
  }

  /**
   * For the engine before it reserves money: throws 503 `provider_error` with `Retry-After`
   * while calls would be refused, so nothing is charged.
   */
  assertAvailable(): void {
    const wait = this.retryAfterMs();
    if (wait > 0) {
      throw new DomainError(
        "provider_error",
        "The generation provider is temporarily unavailable; retry after the indicated time",
        {},
        { "Retry-After": String(Math.max(1, Math.ceil(wait / 1000))) },
        503,
      );
    }
  }

  /** Runs one provider call under the breaker. */
  async run<T>(operation: ProviderOperation, fn: () => Promise<T>): Promise<T> {
    const probe = this.acquire(operation);
    const startedAt = performance.now();
    try {
      const value = await fn();
      observeProviderCall(this.provider, operation, true, (performance.now() - startedAt) / 1000);
      this.onSuccess();
      return value;
    } catch (err) {
      // "Not finished yet" is an answer, not a fault.
      const fault = isProviderUnavailable(err) && err.reason !== "not_ready";
      observeProviderCall(this.provider, operation, !fault, (performance.now() - startedAt) / 1000);
      if (fault) this.onFailure(err);
      else this.onSuccess();
      throw err;
    } finally {
      if (probe) this.probeStartedAt = null;
    }
  }

  /** Returns true when this call is the half-open probe. */
  private acquire(operation: ProviderOperation): boolean {
    const state = this.state;
    if (state === "closed") return false;
    if (state === "half_open" && !this.probeInFlight()) {
      this.probeStartedAt = this.now();
      return true;
    }
    throw new CircuitOpenError(this.provider, operation, Math.max(1, this.retryAfterMs()));
  }

  // A probe that never answers must not keep the circuit shut for ever: after one cooldown
  // another call may probe.
  private probeInFlight(): boolean {
    return this.probeStartedAt !== null && this.now() - this.probeStartedAt < this.options.cooldownMs;
  }

  recordSuccess(): void {
    this.onSuccess();
  }

  recordFailure(): void {
    this.onFailure();
  }

  private onSuccess() {
    if (this.openedAt !== null) log.info("provider circuit closed", { provider: this.provider });
    this.failures = 0;
    this.openedAt = null;
  }

  private onFailure(err?: unknown) {
    // A failure fast-failed by this breaker says nothing new about the provider.
    if (isCircuitOpen(err)) return;
    this.failures += 1;
    const reopen = this.openedAt !== null; // a failed half-open probe
    if (reopen || this.failures >= this.options.failureThreshold) {
      if (!reopen) log.warn("provider circuit opened", { provider: this.provider, failures: this.failures });
      this.openedAt = this.now();
    }
  }

  reset(): void {
    this.failures = 0;
    this.openedAt = null;
    this.probeStartedAt = null;
  }
}

// On globalThis: the production build copies this module into several server chunks, and the
// engine's breaker must be the one /health and /metrics report.
const globalBreakers = globalThis as unknown as { __gwBreakers?: Map<ProviderName, CircuitBreaker> };
const breakers = (globalBreakers.__gwBreakers ??= new Map<ProviderName, CircuitBreaker>());

/** The process-wide breaker of a provider, configured by PROVIDER_BREAKER_FAILURES/_COOLDOWN_MS. */
export function breakerFor(provider: ProviderName): CircuitBreaker {
  let breaker = breakers.get(provider);
  if (!breaker) {
    const { PROVIDER_BREAKER_FAILURES, PROVIDER_BREAKER_COOLDOWN_MS } = env();
    breaker = new CircuitBreaker(provider, {
      failureThreshold: PROVIDER_BREAKER_FAILURES,
      cooldownMs: PROVIDER_BREAKER_COOLDOWN_MS,
    });
    breakers.set(provider, breaker);
  }
  return breaker;
}

/** The state of every breaker made so far in this process (for /health and /metrics). */
export function breakerSnapshots(): CircuitSnapshot[] {
  return [...breakers.values()].map((breaker) => breaker.snapshot());
}

/** Tests: forget every breaker (they are rebuilt from the current env on next use). */
export function resetBreakers(): void {
  breakers.clear();
}
