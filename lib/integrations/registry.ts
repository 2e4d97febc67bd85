import { env } from "@/lib/core/env";
import { notFound } from "@/lib/core/errors";
import { coversAdapter } from "./covers/adapter";
import type { IntegrationAction, IntegrationAdapter } from "./integration-action";

export const EDIT_SUFFIX = "-edit";

/** Every adapter this deployment serves, keyed by slug. One ships today; its slug is INTEGRATION_SLUG. */
export function integrationAdapters(): Map<string, IntegrationAdapter> {
  const adapters = [coversAdapter(env().INTEGRATION_SLUG)];
  return new Map(adapters.map((a) => [a.slug, a]));
}

/**
 * The adapter and action a path segment names: `<slug>` → generate, `<slug>-edit` → edit. An exact
 * slug wins, so an adapter whose own slug ends in `-edit` still gets its generate action. Anything
 * else is 404 not_found, like any unknown path.
 */
export function resolveIntegration(segment: string): { adapter: IntegrationAdapter; action: IntegrationAction } {
  const adapters = integrationAdapters();
  const exact = adapters.get(segment);
  if (exact) return { adapter: exact, action: exact.generate };
  if (segment.endsWith(EDIT_SUFFIX)) {
    const edited = adapters.get(segment.slice(0, -EDIT_SUFFIX.length));
    if (edited) return { adapter: edited, action: edited.edit };
  }
  throw notFound("Integration");
}
