/**
 * The shapes of fal's queue protocol as the loopback servers speak it (./protocol.ts): routes,
 * scripted faults, recorded calls and deliveries, and what a subclass says a request is doing.
 */
export type Route = "submit" | "status" | "stream" | "result" | "cancel" | "models" | "pricing" | "jwks";
export type Scripted = { status: number; body?: unknown; headers?: Record<string, string> };
export type Action = Scripted | "drop" | "accept-then-drop" | "hang";

export type RecordedCall = {
  route: Route | "unknown";
  method: string;
  path: string;
  query: URLSearchParams;
  headers: Record<string, string | string[] | undefined>;
  body: string;
};
export type WebhookDelivery = { requestId: string; status: number | null; body: string; headers: Record<string, string> };

export type FalLogLine = { message: string; level: string; source: "USER"; timestamp: string };
export type FalQueued = { id: string; endpointId: string; appId: string; input: Record<string, unknown>; webhookUrl: string | null };
export type FalSubmission = Omit<FalQueued, "id"> & {
  body: string;
  /** `X-Fal-Request-Timeout` in milliseconds: the time it has to start (notes/fal.md §2); null without one. */
  requestTimeoutMs: number | null;
};

export type FalPhase =
  | { status: "IN_QUEUE"; queuePosition: number }
  | { status: "IN_PROGRESS"; logs: FalLogLine[] }
  | { status: "COMPLETED"; logs: FalLogLine[]; inferenceTimeSeconds: number | null; error?: string | null; errorType?: string | null };

/** What the result route answers; `unavailable` is a transient refusal of this one fetch. */
export type FalOutcome =
  | { kind: "pending" }
  | { kind: "cancelled" }
  | { kind: "output"; output: Record<string, unknown> }
  | { kind: "error"; status: number; body: unknown; headers?: Record<string, string> }
  | { kind: "unavailable"; answer: Scripted };

export type FalServerOptions = {
  /** The only credentials accepted (`Authorization: Key <key>`). */
  key: string;
  userId: string;
  /** Where the queue API lives under the origin: "" (like queue.fal.run) or e.g. "/queue". */
  queuePrefix: string;
  /** Delivery attempts per webhook (fal: 10 over about two hours) and the first pause (then ×3). */
  webhookAttempts?: number;
  webhookRetryBaseMs?: number;
};
