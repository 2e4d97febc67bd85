import { env } from "@/lib/env";
import { idempotencyOf } from "@/lib/generation/idempotency";
import { parseWith, readJson } from "@/lib/http/request";
import type { ServiceContext } from "@/lib/context";
import { resolveIntegration } from "./registry";

/**
 * Runs `POST /integrations/{segment}`: the adapter is resolved first (an unknown slug is 404
 * whatever the body), then the body is validated against that action's schema.
 */
export async function runIntegration(ctx: ServiceContext, req: Request, segment: string): Promise<unknown> {
  const { action } = resolveIntegration(segment);
  const body = parseWith(action.body, await readJson(req, env().MAX_BODY_BYTES), "invalid_body");
  const idempotency = idempotencyOf(req, ctx.principal, { operation: `integration:${segment}`, body });
  return action.run(ctx, body, idempotency);
}
