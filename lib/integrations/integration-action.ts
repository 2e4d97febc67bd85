import type { z } from "zod";
import type { ServiceContext } from "@/lib/auth/context";
import type { Idempotency } from "@/lib/generation";

export type IntegrationAction = {
  /** The JSON body; failures answer 400 invalid_body with issues. */
  body: z.ZodType;
  /** Receives the body as `body` parsed it, and the request's Idempotency-Key (its generation is keyed by it). */
  run: (ctx: ServiceContext, body: unknown, idempotency?: Idempotency) => Promise<unknown>;
};

/** Pairs a body schema with the verb that takes its output, checked here and erased for the registry. */
export function integrationAction<B extends z.ZodType>(
  body: B,
  run: (ctx: ServiceContext, body: z.output<B>, idempotency?: Idempotency) => Promise<unknown>,
): IntegrationAction {
  return { body, run: (ctx, parsed, idempotency) => run(ctx, parsed as z.output<B>, idempotency) };
}

/** A partner adapter: `POST /integrations/{slug}` runs `generate`, `POST /integrations/{slug}-edit` runs `edit`. */
export type IntegrationAdapter = {
  slug: string;
  generate: IntegrationAction;
  edit: IntegrationAction;
};
