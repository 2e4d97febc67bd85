import type { Db } from "@/db/client";
import type { Principal } from "@/lib/auth/principal";
import type { Idempotency } from "@/lib/generation/idempotency";

/**
 * What an integration operation runs with: the request's id, database and caller (withGateway's
 * ctx), and its Idempotency-Key, which the operation's generation (if it makes one) is keyed by.
 */
export type IntegrationContext = { requestId: string; db: Db; principal: Principal; idempotency?: Idempotency };
