import { randomUUID } from "node:crypto";
import { getDb } from "@/db/client";
import { activity, assets, generationRequests } from "@/db/schema";
import { resolveSession } from "@/lib/auth/resolve";

/** A page's request context for a session, as requireViewer gives it (plus a request id). */
export async function ctxOf(session: string) {
  const db = await getDb();
  const principal = await resolveSession(db, session);
  if (!principal) throw new Error("the session does not resolve");
  return { requestId: randomUUID(), db, principal };
}

/** What the engine records for one finished generation: the request, its activity row and its files. */
export async function finishedGeneration(userId: string, opts: { falRequestId?: string | null; status?: "completed" | "failed" } = {}) {
  const db = await getDb();
  const requestId = randomUUID();
  const falRequestId = opts.falRequestId === undefined ? `fal-${randomUUID()}` : opts.falRequestId;
  const status = opts.status ?? "completed";
  const output =
    status === "completed"
      ? { images: [{ url: `/files/${userId}/${requestId}/0.jpg`, content_type: "image/jpeg", width: 512, height: 512 }], seed: 7 }
      : null;
  await db.insert(generationRequests).values({
    id: requestId,
    userId,
    modelId: "fal-ai/flux/schnell",
    surface: "gateway",
    mode: "queue",
    status,
    input: { prompt: "a red fox" },
    output,
    errorCode: status === "failed" ? "generation_failed" : null,
    costReservedCredits: 8,
    costSettledCredits: status === "failed" ? 0 : 8,
    provider: "local",
    providerRequestId: falRequestId,
    startedAt: new Date("2026-01-01T00:00:01Z"),
    completedAt: new Date("2026-01-01T00:00:03Z"),
  });
  const [record] = await db
    .insert(activity)
    .values({
      id: `act_${randomUUID()}`,
      userId,
      modelId: "fal-ai/flux/schnell",
      operation: "queue",
      credits: status === "failed" ? 0 : 8,
      status,
      errorCode: status === "failed" ? "generation_failed" : null,
      requestId,
      providerRequestId: falRequestId,
      durationMs: 2000,
    })
    .returning();
  const asset = (n: number, status: "stored" | "deleted") => ({
    id: `as_${randomUUID()}`,
    userId,
    kind: "result" as const,
    generationId: requestId,
    falRequestId,
    sourceUrl: `http://sim/${requestId}/${n}.jpg`,
    s3Key: `${userId}/${requestId}/${n}.jpg`,
    s3Bucket: "local",
    contentType: "image/jpeg",
    sizeBytes: 1000 + n,
    status,
    publicUrl: `http://localhost:3000/files/${userId}/${requestId}/${n}.jpg`,
  });
  if (status === "completed") await db.insert(assets).values([asset(0, "stored"), asset(1, "deleted")]);
  return { requestId, falRequestId, record: record! };
}
