import type { ServiceContext } from "@/lib/auth/context";
import type { Principal } from "@/lib/auth/principal";
import { json } from "@/lib/http/json";
import { lastEventIdOf } from "@/lib/http/sse";
import type { SQL } from "drizzle-orm";
import { parseQueuePath, type QueuePath } from "@/lib/http/model-path";
import {
  cancelGeneration,
  generationReadFor,
  getGenerationOrThrow,
  failureError,
  gatewayResult,
  queueUrls,
  servedByHeaders,
  statusBody,
  logsOf,
} from "@/lib/generation";
import { gatewayProgressStream, gatewayStatusStream } from "./streams";

type RequestPath = Exclude<QueuePath, { kind: "submit" }>;

/**
 * GET /queue/{modelId}/requests/{id}[/status[/stream]|/progress/stream]. A stream resumes after
 * the request's Last-Event-ID (or `lastEventId`) and answers 204 once the job is final.
 */
export async function readQueuedRequest(
  ctx: ServiceContext,
  path: RequestPath,
  query: { passthrough?: boolean; logs?: boolean },
  req?: Request,
  /** The job row read along with the request's key count (`carryQueuedRead`); undefined: read here. */
  carried?: Record<string, unknown> | null,
): Promise<Response> {
  const row = await getGenerationOrThrow(ctx, path.requestId, path.modelId, carried);
  switch (path.kind) {
    case "result":
      if (row.status === "completed") return json(gatewayResult(row, query.passthrough), { headers: servedByHeaders(row) });
      if (row.status === "failed") throw failureError(row);
      return json(statusBody(row), { status: row.status === "cancelled" ? 200 : 202, headers: servedByHeaders(row) });
    case "status":
      return json(statusBody(row, query.logs ? await logsOf(ctx.db, row.id) : undefined), { headers: servedByHeaders(row) });
    case "status-stream":
      return gatewayStatusStream(ctx, row, query.logs ?? false, req ? lastEventIdOf(req) : null, req?.signal);
    case "progress-stream":
      return gatewayProgressStream(ctx, row, req ? lastEventIdOf(req) : null, req?.signal);
    case "cancel":
      return json(await cancelGeneration(ctx, row.id, path.modelId));
  }
}

/**
 * For the queue GET route's `carry`: a status or result poll reads its job in the statement that
 * counts the caller's key, so a poll costs one round trip (one indexed read) beside the cached key
 * lookup. Streams and anything else read for themselves.
 */
export function carryQueuedRead({
  params,
  principal,
}: {
  params: Record<string, string | string[] | undefined>;
  principal: Principal;
}): SQL | null {
  let path: QueuePath;
  try {
    path = parseQueuePath(params.path);
  } catch {
    return null;
  }
  if (path.kind !== "status" && path.kind !== "result") return null;
  return generationReadFor(path.requestId, principal.userId);
}

export function queuedAnswer(row: Parameters<typeof queueUrls>[0] & { status: string; queuePosition: number | null }) {
  return {
    requestId: row.id,
    request_id: row.id,
    status: row.status,
    ...(row.queuePosition != null ? { queuePosition: row.queuePosition } : {}),
    ...queueUrls(row),
  };
}
