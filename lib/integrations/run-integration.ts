import { idempotencyOf } from "@/lib/generation";
import { parseWith } from "@/lib/core/validation";
import type { ServiceContext } from "@/lib/auth/context";
import { resolveIntegration } from "./registry";

/**
 * Runs `POST /integrations/{segment}`: the adapter is resolved first (an unknown slug is 404
 * whatever the body), then the body (read by the route, only now) is validated against that action's
 * schema.
 */
export async function runIntegration(
  ctx: ServiceContext,
  req: Request,
  segment: string,
  readBody: () => Promise<unknown>,
): Promise<unknown> {
  const { action } = resolveIntegration(segment);
  const body = parseWith(action.body, await readBody(), "invalid_body");
  const idempotency = idempotencyOf(req, ctx.principal, { operation: `integration:${segment}`, body });
  return action.run(ctx, body, idempotency);
}
