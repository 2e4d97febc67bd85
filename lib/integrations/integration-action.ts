import type { z } from "zod";
import type { IntegrationContext } from "./context";

export type IntegrationAction = {
  /** The JSON body; failures answer 400 invalid_body with issues. */
  body: z.ZodType;
  /** Receives the body as `body` parsed it. */
  run: (ctx: IntegrationContext, body: unknown) => Promise<unknown>;
};

/** Pairs a body schema with the verb that takes its output, checked here and erased for the registry. */
export function integrationAction<B extends z.ZodType>(
  body: B,
  run: (ctx: IntegrationContext, body: z.output<B>) => Promise<unknown>,
): IntegrationAction {
  return { body, run: (ctx, parsed) => run(ctx, parsed as z.output<B>) };
}

/** A partner adapter: `POST /integrations/{slug}` runs `generate`, `POST /integrations/{slug}-edit` runs `edit`. */
export type IntegrationAdapter = {
  slug: string;
  generate: IntegrationAction;
  edit: IntegrationAction;
};
