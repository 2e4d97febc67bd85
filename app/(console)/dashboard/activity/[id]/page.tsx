import Link from "next/link";
import { notFound } from "next/navigation";
import { randomUUID } from "node:crypto";
import type { ReactNode } from "react";
import { formatDuration, statusTone } from "@/components/generation/activity-filters";
import { JsonBlock, MediaGrid, ResultView } from "@/components/generation/media-view";
import { assetMedia, type MediaItem } from "@/components/generation/result-media";
import { Alert, Badge, cellClass, formatTime, Table } from "@/components/dashboard/ui";
import { Card, PageHeader } from "@/components/ui/card";
import { requireViewer } from "@/lib/auth/viewer";
import { getActivityDetail } from "@/lib/generation-ui/get-activity-detail";
import { isApiError } from "@/lib/http/errors";
import { formatCredits } from "@/lib/money/credits";

export const metadata = { title: "Activity record" };

async function load(id: string) {
  const ctx = { ...(await requireViewer()), requestId: randomUUID() };
  try {
    return await getActivityDetail(ctx, id);
  } catch (err) {
    // Someone else's record is exactly as missing as none.
    if (isApiError(err) && err.code === "not_found") notFound();
    throw err;
  }
}

function Row({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <div className="flex justify-between gap-4 py-1.5 text-sm">
      <dt className="text-slate-500">{label}</dt>
      <dd className="text-right text-slate-900" data-testid={testId}>
        {children}
      </dd>
    </div>
  );
}

/** One activity record: what was asked (input), what came back (output and stored files), its cost and duration. */
export default async function ActivityDetailPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const { record, generation, assets } = await load(decodeURIComponent(id));
  const files = assets.map(assetMedia).filter((m): m is MediaItem => m !== null);
  return (
    <>
      <p className="mb-2 text-sm">
        <Link href="/dashboard/activity" className="text-brand-700 hover:underline">
          ← Activity
        </Link>
      </p>
      <PageHeader
        title={<span className="font-mono text-xl">{record.modelId ?? record.operation}</span>}
        description={`${record.operation} · ${formatTime(record.createdAt)}`}
        actions={
          <span data-testid="activity-status">
            <Badge tone={statusTone(record.status)}>{record.status}</Badge>
          </span>
        }
      />
      <div className="grid gap-6 xl:grid-cols-3">
        <div className="space-y-6 xl:col-span-2">
          {generation?.errorCode || record.errorCode ? (
            <Alert>
              <span className="font-mono text-xs">{generation?.errorCode ?? record.errorCode}</span>
              {generation?.errorMessage ? ` — ${generation.errorMessage}` : ""}. A failed run is refunded in full.
            </Alert>
          ) : null}
          <Card title="Output">
            {generation?.output ? <ResultView result={generation.output} /> : <p className="text-sm text-slate-600">No output was recorded for this operation.</p>}
          </Card>
          <Card title={`Stored files (${assets.length})`}>
            {assets.length === 0 ? (
              <p className="text-sm text-slate-600">No files are stored for this record (or they were deleted).</p>
            ) : (
              <div className="space-y-4" data-testid="activity-assets">
                {/* The output above already shows these files; without one (an upload), show them here. */}
                {!generation?.output && <MediaGrid items={files} />}
                <Table head={["File", "Type", "Size", "Status", "Stored"]}>
                  {assets.map((a) => (
                    <tr key={a.id} data-testid="asset-row">
                      <td className={`${cellClass} font-mono text-xs`}>
                        {a.publicUrl ? (
                          <a href={a.publicUrl} className="text-brand-700 hover:underline" target="_blank" rel="noreferrer">
                            {a.s3Key.split("/").pop()}
                          </a>
                        ) : (
                          a.s3Key.split("/").pop()
                        )}
                      </td>
                      <td className={cellClass}>{a.contentType ?? "—"}</td>
                      <td className={cellClass}>{a.sizeBytes === null ? "—" : `${a.sizeBytes.toLocaleString("en-US")} B`}</td>
                      <td className={cellClass}>
                        <Badge tone={a.status === "stored" ? "green" : a.status === "failed" ? "red" : "slate"}>{a.status}</Badge>
                        {a.error && <span className="ml-2 text-xs text-red-700">{a.error}</span>}
                      </td>
                      <td className={cellClass}>{formatTime(a.createdAt)}</td>
                    </tr>
                  ))}
                </Table>
              </div>
            )}
          </Card>
          <Card title="Input">{generation ? <JsonBlock value={generation.input} label="Model input" open /> : <p className="text-sm text-slate-600">This operation had no model input.</p>}</Card>
        </div>
        <Card title="Summary" className="h-fit">
          <dl className="divide-y divide-slate-100">
            <Row label="Cost" testId="activity-cost">
              {formatCredits(record.credits)}
            </Row>
            {generation && (
              <>
                <Row label="Reserved">{formatCredits(generation.reservedCredits)}</Row>
                <Row label="Settled">{generation.settledCredits === null ? "—" : formatCredits(generation.settledCredits)}</Row>
                {generation.sandbox && <Row label="Sandbox">test key: nothing charged</Row>}
              </>
            )}
            <Row label="Duration" testId="activity-duration">
              {formatDuration(record.durationMs)}
            </Row>
            <Row label="Status">{record.status}</Row>
            <Row label="Operation">{record.operation}</Row>
            {generation && <Row label="Surface">{`${generation.surface} · ${generation.mode}`}</Row>}
            <Row label="Created">{formatTime(record.createdAt)}</Row>
            {generation?.completedAt && <Row label="Finished">{formatTime(generation.completedAt)}</Row>}
            <Row label="API key">{record.apiKeyId ? <span className="font-mono text-xs">{record.apiKeyId}</span> : "dashboard"}</Row>
            <Row label="Request ID">
              <span className="break-all font-mono text-xs">{record.requestId ?? "—"}</span>
            </Row>
            <Row label="Provider request">
              <span className="break-all font-mono text-xs">{record.falRequestId ?? "—"}</span>
            </Row>
          </dl>
          {record.falRequestId && (
            <p className="mt-3 text-xs text-slate-500">
              JSON:{" "}
              <a className="text-brand-700 hover:underline" href={`/me/activity/${encodeURIComponent(record.falRequestId)}`}>
                /me/activity/{record.falRequestId}
              </a>
            </p>
          )}
        </Card>
      </div>
    </>
  );
}
