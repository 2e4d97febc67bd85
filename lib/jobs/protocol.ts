import { createHmac } from "node:crypto";
import canonicalize from "canonicalize";
import { z } from "zod";
import type { JobEvent, MemoizedStep } from "@/db/schema";
import { retryAfterMs } from "./time";

/**
 * The Inngest SDK protocol as the executor speaks it to a served handler
 * (docs/SDK_SPEC.md in inngest/inngest, checked against inngest@4.24): signed call requests in,
 * status + ops out. `protocol.contract.test.ts` pins every shape relied on here against the
 * installed SDK, so an upgrade that changes them fails loudly.
 */

/** Where calls go: the handler in-process, or `fetch` against a running app's /api/inngest. */
export type Transport = {
  /** The endpoint URL (for in-process calls only its path and host matter). */
  url: string;
  signingKey: string;
  send: (req: Request) => Promise<Response>;
};

type ServeHandler = { GET: unknown; POST: unknown; PUT: unknown };

/** Calls a serve() handler in-process, as Next.js would call the route. */
export function handlerTransport(handler: ServeHandler, signingKey: string, url = "http://jobs.embedded/api/inngest"): Transport {
  const methods = handler as unknown as Record<string, (req: Request, ctx?: unknown) => Promise<Response>>;
  return {
    url,
    signingKey,
    send: (req) => {
      const method = methods[req.method];
      if (!method) throw new Error(`no ${req.method} handler`);
      return method(req, undefined);
    },
  };
}

/** Calls a running app over HTTP: the executor then plays the Inngest server for it. */
export function fetchTransport(url: string, signingKey: string): Transport {
  return { url, signingKey, send: (req) => fetch(req) };
}

/** `X-Inngest-Signature`: HMAC-SHA256 over the canonical JSON body and the timestamp (SDK_SPEC 4.1.3). */
export function signBody(body: string, signingKey: string, nowSeconds = Math.round(Date.now() / 1000)): string {
  const key = signingKey.replace(/^signkey-\w+-/, "");
  const mac = createHmac("sha256", key).update(body).update(String(nowSeconds)).digest("hex");
  return `t=${nowSeconds}&s=${mac}`;
}

export type CallContext = {
  runId: string;
  attempt: number;
  maxAttempts: number;
  /** Hashed step ids in completion order. */
  stack: string[];
  /** Report the next step (`StepPlanned`) instead of running it: the executor looks ahead (run-driver.ts). */
  planOnly?: boolean;
};

export type CallRequest = {
  functionId: string;
  /** `step` to discover and run the next step, or a planned step's hashed id to run just that. */
  stepId: string;
  event: JobEvent;
  steps: Record<string, MemoizedStep>;
  ctx: CallContext;
};

/** One op of a 206 answer. Unknown fields pass through; only these are relied on. */
export const opSchema = z
  .object({
    id: z.string(),
    op: z.string(),
    name: z.string().optional(),
    displayName: z.string().optional(),
    opts: z.record(z.string(), z.unknown()).nullish(),
    data: z.unknown().optional(),
    error: z.unknown().optional(),
  })
  .loose();
export type Op = z.infer<typeof opSchema>;

export type SerializedError = { name?: string; message?: string; stack?: string; [k: string]: unknown };

export type CallOutcome =
  /** 200: the run finished with this output. */
  | { kind: "complete"; output: unknown }
  /** 206: steps to act on; `retryAfterMs` comes with a StepError from RetryAfterError. */
  | { kind: "ops"; ops: Op[]; retryAfterMs?: number }
  /** Anything else: a function-level error, retriable unless the SDK said `X-Inngest-No-Retry: true`. */
  | { kind: "error"; retriable: boolean; retryAfterMs?: number; error: SerializedError; status: number };

export async function callFunction(transport: Transport, call: CallRequest, now: number): Promise<CallOutcome> {
  const body = canonicalize({
    event: call.event,
    events: [call.event],
    steps: call.steps,
    ctx: {
      run_id: call.ctx.runId,
      attempt: call.ctx.attempt,
      max_attempts: call.ctx.maxAttempts,
      // No parallel steps here (outcome.ts refuses them): a lone step runs inline unless the
      // executor only looks at what comes next.
      disable_immediate_execution: call.ctx.planOnly ?? false,
      use_api: false,
      stack: { stack: call.ctx.stack, current: call.ctx.stack.length },
    },
    version: 2,
  })!;
  const url = new URL(transport.url);
  url.searchParams.set("fnId", call.functionId);
  url.searchParams.set("stepId", call.stepId);
  let res: Response;
  try {
    res = await transport.send(
      new Request(url, {
        method: "POST",
        body,
        headers: {
          "content-type": "application/json",
          "x-inngest-signature": signBody(body, transport.signingKey),
          "x-inngest-server-kind": "cloud",
        },
      }),
    );
  } catch (err) {
    // The app was unreachable (HTTP mode) or the handler threw: retriable, like a 5xx.
    return { kind: "error", retriable: true, status: 0, error: { name: "TransportError", message: String(err) } };
  }
  return readOutcome(res, now);
}

export async function readOutcome(res: Response, now: number): Promise<CallOutcome> {
  const text = await res.text();
  let json: unknown = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = null;
  }
  const retryAfter = retryAfterMs(res.headers.get("retry-after"), now);
  if (res.status === 200) return { kind: "complete", output: json };
  if (res.status === 206) {
    const ops = z.array(opSchema).safeParse(json);
    if (ops.success) return { kind: "ops", ops: ops.data, retryAfterMs: retryAfter };
    return {
      kind: "error",
      retriable: true,
      status: 206,
      error: { name: "ProtocolError", message: `unreadable ops: ${text.slice(0, 300)}` },
    };
  }
  const noRetry = res.headers.get("x-inngest-no-retry") === "true";
  const error: SerializedError =
    json && typeof json === "object" && !Array.isArray(json)
      ? (json as SerializedError)
      : { name: "HttpError", message: `HTTP ${res.status}: ${text.slice(0, 300)}` };
  return { kind: "error", retriable: !noRetry, retryAfterMs: retryAfter, error, status: res.status };
}

/** The app's function configurations, learned the way an Inngest server does: a signed in-band sync. */
export async function syncFunctions(transport: Transport): Promise<unknown[]> {
  const body = canonicalize({ url: transport.url })!;
  const res = await transport.send(
    new Request(transport.url, {
      method: "PUT",
      body,
      headers: {
        "content-type": "application/json",
        "x-inngest-signature": signBody(body, transport.signingKey),
        "x-inngest-sync-kind": "in_band",
        "x-inngest-server-kind": "cloud",
      },
    }),
  );
  const text = await res.text();
  if (res.status !== 200) throw new Error(`in-band sync of ${transport.url} failed: HTTP ${res.status} ${text.slice(0, 300)}`);
  const parsed = z
    .object({ functions: z.array(z.unknown()) })
    .loose()
    .safeParse(JSON.parse(text));
  if (!parsed.success) throw new Error(`in-band sync of ${transport.url} answered without functions`);
  return parsed.data.functions;
}
