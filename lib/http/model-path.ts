import { DomainError } from "@/lib/core/errors";

/**
 * modelId contains slashes (`fal-ai/flux/dev`), so routes under /models and /queue are catch-alls
 * and their tails are parsed here, once. Next.js has already decoded each segment exactly once;
 * nothing here decodes again.
 */
export type ModelPath = { kind: "model"; modelId: string } | { kind: "estimate"; modelId: string } | { kind: "schema"; modelId: string };

export type QueuePath =
  | { kind: "submit"; modelId: string }
  | {
      kind: "result" | "status" | "status-stream" | "progress-stream" | "cancel";
      modelId: string;
      requestId: string;
    };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function segmentsOf(raw: string | string[] | undefined): string[] {
  const segments = Array.isArray(raw) ? raw : raw ? [raw] : [];
  if (segments.length === 0 || segments.some((s) => s === "" || s === "." || s === "..")) {
    throw new DomainError("invalid_params", "Invalid model path", {
      issues: [{ path: ["modelId"], message: "Expected a model id such as fal-ai/flux/dev" }],
    });
  }
  return segments;
}

export const joinModelId = (segments: string[]) => segments.join("/");

/** `/models/{modelId}` or `/models/{modelId}/estimate`. */
export function parseModelPath(raw: string | string[] | undefined, tails: readonly string[] = ["estimate"]): ModelPath {
  const segments = segmentsOf(raw);
  const last = segments[segments.length - 1]!;
  if (segments.length > 1 && tails.includes(last)) {
    return { kind: last as "estimate" | "schema", modelId: joinModelId(segments.slice(0, -1)) };
  }
  return { kind: "model", modelId: joinModelId(segments) };
}

const QUEUE_TAILS: Record<string, QueuePath["kind"]> = {
  "": "result",
  status: "status",
  "status/stream": "status-stream",
  "progress/stream": "progress-stream",
  cancel: "cancel",
};

/** `/queue/{modelId}` or `/queue/{modelId}/requests/{uuid}[/status[/stream]|/progress/stream|/cancel]`. */
export function parseQueuePath(raw: string | string[] | undefined): QueuePath {
  const segments = segmentsOf(raw);
  for (let i = segments.length - 2; i >= 1; i--) {
    if (segments[i] !== "requests" || !UUID.test(segments[i + 1]!)) continue;
    const kind = QUEUE_TAILS[segments.slice(i + 2).join("/")];
    if (!kind) break;
    return { kind, modelId: joinModelId(segments.slice(0, i)), requestId: segments[i + 1]!.toLowerCase() } as QueuePath;
  }
  if (segments.includes("requests")) throw new DomainError("not_found", "Request not found");
  return { kind: "submit", modelId: joinModelId(segments) };
}
