import { env } from "@/lib/core/env";
import { breakerFor, resetBreakers, type CircuitBreaker } from "./circuit-breaker";
import { FalProvider } from "./fal";
import { LocalProvider } from "./local/provider";
import type { GenerationProvider, ProviderName } from "./types";

/**
 * Which provider runs a generation:
 * - sandbox (`_test_`) keys: always `local`, whatever PROVIDER says (and so are models whose
 *   catalog row says `provider: "local"`);
 * - otherwise PROVIDER: `fal` (needs FAL_KEY; lib/core/env refuses to start without it) or `local`
 *   (the default).
 * The engine stores the chosen name with the job and resumes it with `providerByName`.
 *
 * The providers handed out are wrapped in their circuit breaker: queue calls (submit, status,
 * result, cancel) fail fast with `CircuitOpenError` while it is open, and their outcomes feed it.
 * Catalog calls (schema, listModels) and media reads are not queue traffic and bypass it.
 */
type Instances = { local?: LocalProvider; fal?: FalProvider; guarded: Map<ProviderName, GenerationProvider> };
const globalProviders = globalThis as unknown as { __gwProviders?: Instances };
const instances = (): Instances => (globalProviders.__gwProviders ??= { guarded: new Map() });

export function configuredProviderName(): ProviderName {
  return env().PROVIDER;
}

/**
 * The provider for a new generation. `modelProvider` is the catalog row's `provider`: a model
 * that exists only on the simulator (`local`) runs there whatever PROVIDER says.
 */
export function providerFor(options: { sandbox: boolean; modelProvider?: string | null }): GenerationProvider {
  return providerByName(options.sandbox || options.modelProvider === "local" ? "local" : configuredProviderName());
}

/** A provider by the name stored with a job (guarded by its circuit breaker). */
export function providerByName(name: ProviderName): GenerationProvider {
  const all = instances();
  let guarded = all.guarded.get(name);
  if (!guarded) {
    guarded = withBreaker(rawProvider(name), () => breakerFor(name));
    all.guarded.set(name, guarded);
  }
  return guarded;
}

/** The unwrapped implementation (the simulator's media route and tests use it). */
export function rawProvider(name: "local"): LocalProvider;
export function rawProvider(name: "fal"): FalProvider;
export function rawProvider(name: ProviderName): GenerationProvider;
export function rawProvider(name: ProviderName): GenerationProvider {
  const all = instances();
  if (name === "local") {
    if (!all.local) {
      all.local = new LocalProvider();
      all.local.start();
    }
    return all.local;
  }
  all.fal ??= new FalProvider();
  return all.fal;
}

export const localProvider = () => rawProvider("local");

/**
 * Media bytes for a provider URL, read in-process when a provider serves it (the simulator),
 * else null: the caller downloads it under the outbound URL rules.
 */
export async function fetchProviderMedia(url: string) {
  return (await localProvider().fetchMedia(url)) ?? (await rawProvider(configuredProviderName()).fetchMedia(url));
}

/** Start-up: resume the simulator's owed webhooks (they survive restarts). */
export function startProviders(): void {
  localProvider();
}

/** Tests: drop every instance and breaker (rebuilt from the current env on next use). */
export function resetProviders(): void {
  instances().local?.stop();
  globalProviders.__gwProviders = undefined;
  resetBreakers();
}

/** `breaker` is looked up at each call, so a breaker rebuilt from new settings takes effect at once. */
function withBreaker(inner: GenerationProvider, breaker: () => CircuitBreaker): GenerationProvider {
  return {
    name: inner.name,
    retriesTransientFailures: inner.retriesTransientFailures,
    callsBackTo: (webhookUrl) => inner.callsBackTo(webhookUrl),
    submit: (request) => breaker().run("submit", () => inner.submit(request)),
    status: (ref, options) => breaker().run("status", () => inner.status(ref, options)),
    result: (ref, options) => breaker().run("result", () => inner.result(ref, options)),
    cancel: (ref, options) => breaker().run("cancel", () => inner.cancel(ref, options)),
    schema: (endpointId, options) => inner.schema(endpointId, options),
    listModels: (options) => inner.listModels(options),
    fetchMedia: (url) => inner.fetchMedia(url),
  };
}
