import { z } from "zod";
import type { Executor } from "@/db/client";
import type { PlannedRoute, RouteAttempt, RoutingPlan } from "@/db/schema";
import type { ModelRow } from "@/lib/catalog/columns";
import { cachedModelRoutes } from "@/lib/catalog/routes";
import { env } from "@/lib/core/env";
import { DomainError } from "@/lib/core/errors";
import { observeFailover } from "@/lib/observability/metrics";
import { quote, type Quote } from "@/lib/pricing/pricing";
import { breakerFor, configuredProviderName, providerNames, type ProviderName } from "@/lib/provider";
import { coolDown, cooldownLeftMs } from "@/lib/provider/cooldown";
import type { GenerationRow } from "./types";

/**
 * Which providers may run a job, in which order (docs/providers.md). A model's routes are the
 * admin's (lib/catalog/routes.ts), less those whose provider is not configured here; a model
 * without any runs on PROVIDER under its alias, as before routes existed; a sandbox key's job, and
 * a model only the simulator has, run on `local`. The request may steer the order (`provider`:
 * OpenRouter's `order`, `only`, `ignore`, `allow_fallbacks`). At the start a provider whose
 * breaker is open is skipped (every one open: 503, nothing charged) and one cooling down after a
 * refusal goes last. The plan is stored with the job: its runs walk it on a refused submit or a
 * missed start deadline (lifecycle.ts), and never once the job has started.
 */

export const providerPreferences = z
  .object({
    order: z.array(z.enum(providerNames)).max(providerNames.length).optional().meta({
      description: "Providers to try first, in this order; the model's other routes follow unless allow_fallbacks is false",
    }),
    only: z.array(z.enum(providerNames)).max(providerNames.length).optional().meta({ description: "Only these providers" }),
    ignore: z.array(z.enum(providerNames)).max(providerNames.length).optional().meta({ description: "Never these providers" }),
    allow_fallbacks: z.boolean().optional().meta({
      description: "false: only the providers in `order` (or the first route), and no other when they refuse",
    }),
  })
  .strict()
  .meta({ id: "ProviderPreferences" });
export type ProviderPreferences = z.output<typeof providerPreferences>;

/** Whether this deployment can send jobs to `provider` (its credentials are set; the simulator always). */
export function providerConfigured(provider: ProviderName): boolean {
  const e = env();
  if (provider === "local") return true;
  if (provider === "fal") return Boolean(e.FAL_KEY);
  return Boolean(e.REPLICATE_API_TOKEN);
}

export type StartPlan = { routing: RoutingPlan; attempts: RouteAttempt[] };

/** The routes a new job may take, in order, and the providers skipped at its start. */
export async function planRoutes(
  db: Executor,
  model: ModelRow,
  price: Quote,
  o: { sandbox: boolean; preferences?: ProviderPreferences },
): Promise<StartPlan> {
  const now = new Date().toISOString();
  if (o.sandbox || model.provider === "local")
    return { routing: { routes: [{ provider: "local", endpointId: model.alias }], allowFallbacks: false }, attempts: [] };
  const routes = (await cachedModelRoutes(db, model.modelId)).filter((r) => providerConfigured(r.provider));
  let planned: PlannedRoute[] = routes.length
    ? routes.map((r) => ({
        provider: r.provider,
        endpointId: r.endpointId,
        ...(Object.keys(r.inputMap).length ? { inputMap: r.inputMap } : {}),
        costCredits:
          r.costRub === null
            ? null
            : quote({ priceRub: r.costRub, priceUnit: model.priceUnit, discountPercent: "0", creditCost: 0 }, price.quantity).credits,
      }))
    : [{ provider: configuredProviderName(), endpointId: model.alias }];
  const p = o.preferences ?? {};
  const allowFallbacks = p.allow_fallbacks !== false;
  if (p.only) planned = planned.filter((r) => p.only!.includes(r.provider as ProviderName));
  if (p.ignore) planned = planned.filter((r) => !p.ignore!.includes(r.provider as ProviderName));
  if (p.order?.length) {
    const rank = (r: PlannedRoute) =>
      p.order!.includes(r.provider as ProviderName) ? p.order!.indexOf(r.provider as ProviderName) : p.order!.length;
    planned = planned
      .map((r, i) => ({ r, i }))
      .sort((a, b) => rank(a.r) - rank(b.r) || a.i - b.i)
      .map(({ r }) => r);
  }
  if (!allowFallbacks)
    planned = p.order?.length ? planned.filter((r) => p.order!.includes(r.provider as ProviderName)) : planned.slice(0, 1);
  if (planned.length === 0) {
    const message = `No provider of ${model.modelId} is left by the provider preferences (it runs on: ${routes.map((r) => r.provider).join(", ") || configuredProviderName()})`;
    throw new DomainError("invalid_body", message, { issues: [{ path: ["provider"], message }] });
  }
  // An open breaker refuses every call: skipped. All open: 503 with the soonest Retry-After, before any charge.
  const open = planned.filter((r) => !breakerFor(r.provider as ProviderName).canRequest());
  if (open.length === planned.length) {
    const soonest = open.reduce((a, b) =>
      breakerFor(a.provider as ProviderName).retryAfterMs() <= breakerFor(b.provider as ProviderName).retryAfterMs() ? a : b,
    );
    breakerFor(soonest.provider as ProviderName).assertAvailable();
  }
  const attempts: RouteAttempt[] = open.map((r) => ({ provider: r.provider, outcome: "skipped", reason: "circuit_open", at: now }));
  const usable = planned.filter((r) => !open.includes(r));
  // Cooling down after a refusal: tried after the others (stable), never dropped.
  const cooling = (r: PlannedRoute) => (cooldownLeftMs(r.provider as ProviderName) > 0 ? 1 : 0);
  const ordered = usable
    .map((r, i) => ({ r, i }))
    .sort((a, b) => cooling(a.r) - cooling(b.r) || a.i - b.i)
    .map(({ r }) => r);
  return { routing: { routes: ordered, allowFallbacks }, attempts };
}

/** The route the job is on now: its plan's entry for its provider, else (older jobs, no plan) the model's alias there. */
export function currentRoute(
  row: Pick<GenerationRow, "provider" | "providerEndpointId" | "routing">,
  model: Pick<ModelRow, "alias">,
): PlannedRoute {
  const planned = row.routing?.routes.find((r) => r.provider === row.provider);
  return planned ?? { provider: row.provider, endpointId: row.providerEndpointId ?? model.alias };
}

/** The routes after the job's current one, in the plan's order. */
export function routesAfter(row: Pick<GenerationRow, "provider" | "routing">): PlannedRoute[] {
  const routes = row.routing?.routes ?? [];
  const at = routes.findIndex((r) => r.provider === row.provider);
  return at < 0 ? [] : routes.slice(at + 1);
}

/** The job's input in the route's names (its `inputMap`); the rest passes as it is. */
export function inputFor(route: PlannedRoute, input: Record<string, unknown>): Record<string, unknown> {
  const map = route.inputMap;
  if (!map || Object.keys(map).length === 0) return input;
  return Object.fromEntries(Object.entries(input).map(([name, value]) => [map[name] ?? name, value]));
}

/**
 * A provider left before the job started there: recorded as an attempt, counted, and (a refusal)
 * cooled down so the next jobs try it last.
 */
export function leftRoute(from: PlannedRoute, to: PlannedRoute | null, outcome: RouteAttempt["outcome"], reason: string): RouteAttempt {
  if (outcome === "refused") coolDown(from.provider as ProviderName, reason);
  if (to) observeFailover(from.provider, to.provider, reason);
  return { provider: from.provider, outcome, reason, at: new Date().toISOString() };
}

/** The start deadline sent with a submit: only when the job has somewhere to go if it is missed. */
export const startDeadlineFor = (row: Pick<GenerationRow, "provider" | "routing">): number | undefined =>
  routesAfter(row).length > 0 ? env().PROVIDER_START_DEADLINE_MS : undefined;

/** A plan of one route (tests, and jobs that may run in one place only). */
export const singleRoute = (provider: ProviderName, endpointId: string): StartPlan => ({
  routing: { routes: [{ provider, endpointId }], allowFallbacks: false },
  attempts: [],
});
