import { log } from "@/lib/core/logger";
import { reportOutcome } from "@/lib/observability/outcomes";
import { PaymentProviderError } from "../errors";
import { yookassaErrorSchema } from "./schemas";

export type YookassaConfig = {
  apiUrl: string;
  shopId: string;
  secretKey: string;
  timeoutMs: number;
  maxRetries: number;
  /** First backoff step in ms; doubles per attempt. */
  baseDelayMs: number;
};

export type YookassaResponse = { status: number; body: unknown };

const RETRYABLE = (status: number) => status === 429 || status >= 500;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * One call to YooKassa's v3 API: HTTP Basic (shop id : secret key), JSON, a per-attempt timeout.
 * Network errors, 429 and 5xx are retried with the SAME Idempotence-Key, so a retried create can
 * never charge twice (the provider answers a repeated key with the first result). A 404 on a read
 * is returned to the caller; any other failure becomes a PaymentProviderError.
 */
export async function yookassaRequest(
  config: YookassaConfig,
  req: { method: "GET" | "POST"; path: string; body?: unknown; idempotenceKey?: string },
): Promise<YookassaResponse> {
  const url = config.apiUrl.replace(/\/+$/, "") + req.path;
  const headers: Record<string, string> = {
    Authorization: `Basic ${Buffer.from(`${config.shopId}:${config.secretKey}`).toString("base64")}`,
    Accept: "application/json",
  };
  if (req.body !== undefined) headers["Content-Type"] = "application/json";
  if (req.idempotenceKey) headers["Idempotence-Key"] = req.idempotenceKey;
  for (let attempt = 0; ; attempt++) {
    const last = attempt >= config.maxRetries;
    let res: Response;
    try {
      res = await fetch(url, {
        method: req.method,
        headers,
        body: req.body === undefined ? undefined : JSON.stringify(req.body),
        signal: AbortSignal.timeout(config.timeoutMs),
        cache: "no-store",
      });
    } catch (err) {
      if (!last) {
        await sleep(config.baseDelayMs * 2 ** attempt);
        continue;
      }
      reportOutcome("yookassa", false);
      throw new PaymentProviderError(`unreachable (${(err as Error).message})`, null, true);
    }
    const text = await res.text();
    let body: unknown = null;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      body = text;
    }
    if (res.ok || (res.status === 404 && req.method === "GET")) {
      reportOutcome("yookassa", true);
      return { status: res.status, body };
    }
    if (RETRYABLE(res.status) && !last) {
      log.warn("yookassa call failed, retrying with the same idempotence key", { path: req.path, status: res.status, attempt });
      await sleep(config.baseDelayMs * 2 ** attempt);
      continue;
    }
    reportOutcome("yookassa", !RETRYABLE(res.status));
    const error = yookassaErrorSchema.safeParse(body);
    const detail = error.success ? `${error.data.code ?? "error"}: ${error.data.description ?? ""}`.trim() : `HTTP ${res.status}`;
    throw new PaymentProviderError(
      `YooKassa answered ${res.status} (${detail})`,
      res.status,
      RETRYABLE(res.status),
      error.success ? (error.data.code ?? null) : null,
    );
  }
}
