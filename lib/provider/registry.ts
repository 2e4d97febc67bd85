import { env } from "@/lib/core/env";
import { processWide } from "@/lib/core/process-wide";
import { breakerFor, resetBreakers, type CircuitBreaker } from "./circuit-breaker";
import { FalProvider } from "./fal/provider";
import { ReplicateProvider } from "./replicate/provider";
import { replicateWebhookSecret } from "./replicate/secret";
import { parseReplicateWebhook } from "./replicate/webhook";
import type { GenerationProvider, MediaBytes, ProviderName, ProviderWebhookEvent } from "./types";

/**
 * The providers by name. Which of them a job runs on (sandbox keys on `local`, a model's routes,
 * PROVIDER for a model without routes: `fal` needs FAL_KEY, `replicate` REPLICATE_API_TOKEN,
 * `local` the default) is planned by the engine (lib/generation/routing.ts), which stores the
 * name with the job and resumes it with `providerByName`.
 *
 * Providers are registered by name: `fal` and `replicate` here, `local` (the simulator, which lib/ does not
 * import) by simulators/register.ts at start-up (instrumentation.ts, test/setup.ts, the bench).
 * Each is built on first use, once per process.
 *
 * The providers handed out are wrapped in their circuit breaker: queue calls (submit, status,
 * result, cancel) fail fast with `CircuitOpenError` while it is open, and their outcomes feed it.
 * Catalog calls (schema, listModels) and media reads are not queue traffic and bypass it.
 */

/** A provider as a registration builds it; `start`/`stop` run its background work, if it has any. */
export type ProviderInstance = GenerationProvider & { start?(): void; stop?(): void };

export type ProviderRegistration = {
  /** Builds the provider (on first use; `start` is called right after). */
  create(): ProviderInstance;
  /** Built and started with the server (`startProviders`): it has work owed from before a restart. */
  startWithServer?: boolean;
  /**
   * Reads the bytes behind a media link this provider issued, without building the provider (the
   * simulator renders its signed links from the URL alone); null for any other URL.
   */
  readMedia?(url: string): Promise<MediaBytes | null>;
  /**
   * Its webhooks, when it signs them as Standard Webhooks (./webhook-verify.ts): the secret they
   * are signed with (null while it sends none here, e.g. not configured), and the verified body in
   * the engine's words.
   */
  standardWebhooks?: {
    secret(): string | null | Promise<string | null>;
    parse(body: string): ProviderWebhookEvent | Promise<ProviderWebhookEvent>;
  };
};

// Process-wide: the registration made at start-up (instrumentation.ts) must be seen by every server chunk.
const registrations = () =>
  processWide(
    "provider.registrations",
    () =>
      new Map<ProviderName, ProviderRegistration>([
        ["fal", { create: () => new FalProvider() }],
        [
          "replicate",
          { create: () => new ReplicateProvider(), standardWebhooks: { secret: replicateWebhookSecret, parse: parseReplicateWebhook } },
        ],
      ]),
  );

/** Registers (or replaces) the provider under `name`; a provider already built keeps running until `resetProviders`. */
export function registerProvider(name: ProviderName, registration: ProviderRegistration): void {
  registrations().set(name, registration);
}

/** The registration under `name`, if any (tests wrap it). */
export const providerRegistration = (name: ProviderName): ProviderRegistration | undefined => registrations().get(name);

type Instances = { built: Map<ProviderName, ProviderInstance>; guarded: Map<ProviderName, GenerationProvider> };
const globalProviders = globalThis as unknown as { __gwProviders?: Instances };
const instances = (): Instances => (globalProviders.__gwProviders ??= { built: new Map(), guarded: new Map() });

export function configuredProviderName(): ProviderName {
  return env().PROVIDER;
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

/** The unwrapped implementation, built (and started) on first use (tests and the bench use it). */
export function rawProvider(name: ProviderName): GenerationProvider {
  const all = instances();
  let provider = all.built.get(name);
  if (!provider) {
    const registration = registrations().get(name);
    if (!registration)
      throw new Error(`No provider is registered as "${name}" (the local simulator is registered by simulators/register.ts)`);
    provider = registration.create();
    all.built.set(name, provider);
    provider.start?.();
  }
  return provider;
}

export const localProvider = () => rawProvider("local");

/**
 * Media bytes for a provider URL, read in-process when a registered provider serves it (the
 * simulator renders its links), else null: the caller downloads it under the outbound URL rules.
 * Only the registrations' readers are asked, never a provider instance: a read builds and starts
 * no provider, so under PROVIDER=fal the media of a sandbox job (the simulator's links) is still
 * read in-process without starting the simulator for it.
 */
export async function fetchProviderMedia(url: string): Promise<MediaBytes | null> {
  for (const registration of registrations().values()) {
    const media = await registration.readMedia?.(url);
    if (media) return media;
  }
  return null;
}

/** The providers that sign Standard Webhooks, the simulator first (its secret is at hand; Replicate's may be fetched). */
export function standardWebhookProviders(): ({ name: ProviderName } & NonNullable<ProviderRegistration["standardWebhooks"]>)[] {
  return [...registrations()]
    .filter(([, r]) => r.standardWebhooks)
    .sort(([a], [b]) => Number(b === "local") - Number(a === "local"))
    .map(([name, r]) => ({ name, ...r.standardWebhooks! }));
}

/** Start-up: build and start the providers with work owed from before a restart (the simulator's webhooks). */
export function startProviders(): void {
  for (const [name, registration] of registrations()) if (registration.startWithServer) rawProvider(name);
}

/** Tests: drop every instance and breaker (rebuilt from the current env on next use); registrations stay. */
export function resetProviders(): void {
  for (const provider of instances().built.values()) provider.stop?.();
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
