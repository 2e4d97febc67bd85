import { getTranslations } from "next-intl/server";
import Link from "next/link";
import { notFound } from "next/navigation";
import { randomUUID } from "node:crypto";
import type { ReactNode } from "react";
import { statusTone } from "@/components/generation/activity-filters";
import { JsonBlock, MediaGrid, ResultView, sizeLabel } from "@/components/generation/media-view";
import { assetMedia, type MediaItem } from "@/components/generation/result-media";
import { Alert, Badge, cellClass, Table } from "@/components/dashboard/ui";
import { Card, PageHeader } from "@/components/ui/card";
import { ButtonLink } from "@/components/ui/button";
import { ModelId } from "@/components/generation/model-id";
import { runAgainHref } from "@/components/generation/run-again";
import { listKeys } from "@/lib/account/keys/list-keys";
import { requireViewer } from "@/lib/auth/viewer";
import { getActivityDetail, getRetryStates, type RetryState } from "@/lib/generation";
import { isDomainError } from "@/lib/core/errors";
import { getFormat } from "@/lib/i18n/server";

export async function generateMetadata() {
  return { title: (await getTranslations("record"))("title") };
}

async function load(
  id: string,
): Promise<Awaited<ReturnType<typeof getActivityDetail>> & { retry: RetryState | null; keyName: string | null }> {
  const ctx = { ...(await requireViewer()), requestId: randomUUID() };
  try {
    const detail = await getActivityDetail(ctx, id);
    const generationId = detail.generation?.id;
    const [retries, keys] = await Promise.all([generationId ? getRetryStates(ctx, [generationId]) : null, listKeys(ctx)]);
    const retry = (generationId && retries?.get(generationId)) || null;
    const keyName = keys.find((k) => k.id === detail.record.apiKeyId)?.name ?? null;
    return { ...detail, retry, keyName };
  } catch (err) {
    // Someone else's record is exactly as missing as none.
    if (isDomainError(err) && err.code === "not_found") notFound();
    throw err;
  }
}

function Row({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <div className="flex justify-between gap-4 py-1.5 text-sm">
      <dt className="text-slate-600">{label}</dt>
      <dd className="min-w-0 text-right text-slate-900" data-testid={testId}>
        {children}
      </dd>
    </div>
  );
}

/** One activity record: what was asked (input), what came back (output and stored files), its cost and duration. */
export default async function ActivityDetailPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const { record, generation, assets, retry, keyName } = await load(decodeURIComponent(id));
  const files = assets.map(assetMedia).filter((m): m is MediaItem => m !== null);
  const [t, ts, tm, f] = await Promise.all([getTranslations("record"), getTranslations("status"), getTranslations("media"), getFormat()]);
  const statusLabel = (s: string) => (ts.has(s as "completed") ? ts(s as "completed") : s);
  const opLabel = (op: string) => (t.has(`op_${op}` as "op_run") ? t(`op_${op}` as "op_run") : op);
  const again = runAgainHref(record.modelId, record.operation, generation?.input);
  return (
    <>
      <p className="mb-2 text-sm">
        <Link href="/dashboard/activity" className="text-brand-700 hover:underline">
          {t("back")}
        </Link>
      </p>
      <PageHeader
        title={record.modelId ? <ModelId id={record.modelId} className="text-xl" /> : opLabel(record.operation)}
        description={`${opLabel(record.operation)} · ${f.dateTime(record.createdAt)}`}
        actions={
          <span className="flex flex-wrap items-center gap-2">
            {again && (
              <ButtonLink href={again} variant="secondary" data-testid="run-again">
                {t("runAgain")}
              </ButtonLink>
            )}
            <span data-testid="activity-status">
              <Badge tone={statusTone(record.status)}>{statusLabel(record.status)}</Badge>
            </span>
            {retry && (
              <span data-testid="activity-retrying">
                <Badge tone="amber">{t("retryBadge", { attempt: retry.attempt + 1, max: retry.maxAttempts })}</Badge>
              </span>
            )}
          </span>
        }
      />
      <div className="grid gap-6 xl:grid-cols-3">
        <div className="min-w-0 space-y-6 xl:col-span-2">
          {retry && (
            <Alert tone="amber">
              <span data-testid="activity-retry-reason">
                {t(retry.failing === "submit" ? "retrySubmit" : "retryPoll", {
                  failed: retry.attempt,
                  max: retry.maxAttempts,
                  next: f.dateTime(retry.nextAt),
                })}
              </span>
            </Alert>
          )}
          {generation?.errorCode || record.errorCode ? (
            <Alert>
              <span className="font-mono text-xs">{generation?.errorCode ?? record.errorCode}</span>
              {/* The provider's own words, in its language. */}
              {generation?.errorMessage ? (
                <>
                  {" — "}
                  <span lang="en">{generation.errorMessage}</span>
                </>
              ) : (
                ""
              )}
              . {t("failedRefunded")}
            </Alert>
          ) : null}
          <Card title={t("output")}>
            {generation?.output ? <ResultView result={generation.output} /> : <p className="text-sm text-slate-600">{t("noOutput")}</p>}
          </Card>
          <Card title={t("files", { count: assets.length })}>
            {assets.length === 0 ? (
              <p className="text-sm text-slate-600">{t("noFiles")}</p>
            ) : (
              <div className="space-y-4" data-testid="activity-assets">
                {/* The output above already shows these files; without one (an upload), show them here. */}
                {!generation?.output && <MediaGrid items={files} />}
                <Table head={[t("colFile"), t("colType"), t("colSize"), t("colStatus"), t("colStored")]}>
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
                      <td className={cellClass}>{sizeLabel(a.sizeBytes, tm, f) ?? "—"}</td>
                      <td className={cellClass}>
                        <Badge tone={a.status === "stored" ? "green" : a.status === "failed" ? "red" : "slate"}>
                          {t(`asset_${a.status}`)}
                        </Badge>
                        {a.error && <span className="ml-2 text-xs text-red-700">{a.error}</span>}
                      </td>
                      <td className={cellClass}>{f.dateTime(a.createdAt)}</td>
                    </tr>
                  ))}
                </Table>
              </div>
            )}
          </Card>
          <Card title={t("input")}>
            {generation ? (
              <JsonBlock value={generation.input} label={t("modelInput")} open />
            ) : (
              <p className="text-sm text-slate-600">{t("noInput")}</p>
            )}
          </Card>
        </div>
        <Card title={t("summary")} className="h-fit min-w-0">
          <dl className="divide-y divide-slate-100">
            <Row label={t("cost")} testId="activity-cost">
              {f.money(record.credits, "charge")}
            </Row>
            {generation && (
              <>
                <Row label={t("reserved")}>{f.money(generation.reservedCredits, "charge")}</Row>
                <Row label={t("settled")}>{generation.settledCredits === null ? "—" : f.money(generation.settledCredits, "charge")}</Row>
                {generation.sandbox && <Row label={t("sandbox")}>{t("sandboxNote")}</Row>}
              </>
            )}
            <Row label={t("duration")} testId="activity-duration">
              {f.duration(record.durationMs)}
            </Row>
            <Row label={t("status")}>{statusLabel(record.status)}</Row>
            <Row label={t("operation")}>{opLabel(record.operation)}</Row>
            {generation && (
              <Row label={t("servedBy")} testId="activity-provider">
                <span translate="no">{generation.servedBy.provider}</span>
              </Row>
            )}
            {generation && generation.servedBy.attempts.length > 1 && (
              <Row label={t("triedFirst")} testId="activity-attempts">
                {generation.servedBy.attempts.slice(0, -1).map((a, i) => (
                  <span key={i}>
                    {i > 0 && "; "}
                    <span translate="no">{a.provider}</span>:{" "}
                    {t.has(`outcome_${a.outcome}` as "outcome_refused") ? t(`outcome_${a.outcome}` as "outcome_refused") : a.outcome}
                    {a.reason && (
                      <>
                        {" ("}
                        <code translate="no">{a.reason}</code>)
                      </>
                    )}
                  </span>
                ))}
              </Row>
            )}
            {generation && (
              <Row label={t("surface")}>
                {`${t.has(`surface_${generation.surface}` as "surface_gateway") ? t(`surface_${generation.surface}` as "surface_gateway") : generation.surface} · ${t(generation.mode === "queue" ? "mode_queue" : "mode_sync")}`}
              </Row>
            )}
            <Row label={t("created")}>{f.dateTime(record.createdAt)}</Row>
            {generation?.completedAt && <Row label={t("finished")}>{f.dateTime(generation.completedAt)}</Row>}
            <Row label={t("source")}>
              {record.apiKeyId ? (
                <>
                  {t("viaKey", { name: keyName ?? t("deletedKey") })}
                  <span className="block break-all font-mono text-xs text-slate-600">{record.apiKeyId}</span>
                </>
              ) : (
                t("viaDashboard")
              )}
            </Row>
            <Row label={t("requestId")}>
              <span className="break-all font-mono text-xs">{record.requestId ?? "—"}</span>
            </Row>
            <Row label={t("providerRequest")}>
              <span className="break-all font-mono text-xs">{record.falRequestId ?? "—"}</span>
            </Row>
          </dl>
          {record.falRequestId && (
            <p className="mt-3 text-xs text-slate-600">
              {t("json")}{" "}
              <a className="break-all text-brand-700 underline" href={`/me/activity/${encodeURIComponent(record.falRequestId)}`}>
                /me/activity/{record.falRequestId}
              </a>
            </p>
          )}
        </Card>
      </div>
    </>
  );
}
