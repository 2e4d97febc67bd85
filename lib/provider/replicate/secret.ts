import { env } from "@/lib/core/env";
import { log } from "@/lib/core/logger";
import { processWide } from "@/lib/core/process-wide";
import { webhookSecretSchema } from "./schemas";

/**
 * The secret Replicate signs this account's webhooks with (one per account, `whsec_…`):
 * REPLICATE_WEBHOOK_SECRET, or read once from `GET /webhooks/default/secret` with the API token.
 * Only while Replicate can run jobs here (its token is set: PROVIDER=replicate, or a model's route
 * to it): otherwise no Replicate job exists, and a forged request must not make the service call
 * Replicate. A failed
 * read is remembered for a minute (null: the webhook is refused, and Replicate retries it).
 */
const FAILURE_BACKOFF_MS = 60_000;
type Slot = { key: string | null; apiUrl: string; failedAt: number };
const slot = () => processWide("replicate.webhook-secret", (): { value: Slot | null } => ({ value: null }));

export async function replicateWebhookSecret(): Promise<string | null> {
  const e = env();
  if (e.REPLICATE_WEBHOOK_SECRET) return e.REPLICATE_WEBHOOK_SECRET;
  if (!e.REPLICATE_API_TOKEN) return null;
  const held = slot().value;
  if (held?.apiUrl === e.REPLICATE_API_URL && (held.key || Date.now() - held.failedAt < FAILURE_BACKOFF_MS)) return held.key;
  let key: string | null = null;
  try {
    const res = await fetch(`${e.REPLICATE_API_URL.replace(/\/+$/, "")}/webhooks/default/secret`, {
      headers: { authorization: `Bearer ${e.REPLICATE_API_TOKEN}`, accept: "application/json" },
      signal: AbortSignal.timeout(10_000),
    });
    if (!res.ok) throw new Error(`answered ${res.status}`);
    key = webhookSecretSchema.parse(await res.json()).key;
  } catch (err) {
    log.warn("could not read Replicate's webhook signing secret", { error: String(err) });
  }
  slot().value = { key, apiUrl: e.REPLICATE_API_URL, failedAt: key ? 0 : Date.now() };
  return key;
}

/** Tests: forget the secret read. */
export function resetReplicateWebhookSecret(): void {
  slot().value = null;
}
