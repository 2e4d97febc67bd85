"use client";

import { useTranslations } from "next-intl";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import {
  ACTIVITY_PAGE_SIZE,
  activityApiQuery,
  activityPageHref,
  OPERATIONS,
  STATUSES,
  statusTone,
  withFilter,
  type ActivityFilters,
  type FilterKey,
} from "@/components/generation/activity-filters";
import { Alert, Badge, Field, Input, Select, Table, Td, WhenText } from "@/components/dashboard/ui";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { apiFetch } from "@/lib/account/api-fetch";
import { useFormat } from "@/lib/i18n/use-format";
import { ModelId } from "@/components/generation/model-id";
import { previewKind, RunThumbnail, type RunPreview } from "@/components/generation/run-thumbnail";

export type ActivityRecord = {
  id: string;
  modelId: string | null;
  operation: string;
  credits: number;
  status: string;
  errorCode: string | null;
  requestId: string | null;
  apiKeyId: string | null;
  durationMs: number | null;
  createdAt: string;
  preview: RunPreview | null;
};

type Page = { items: ActivityRecord[]; total: number; limit: number; offset: number };
type KeyOption = { id: string; name: string; start: string | null };

/** GET /me/activity with the page's filters, kept in the URL so a filtered view can be shared and reloaded. */
export function ActivityList({
  initialFilters,
  initialPage,
  keys,
}: {
  initialFilters: ActivityFilters;
  initialPage?: Page;
  keys: KeyOption[];
}) {
  const t = useTranslations("activity");
  const ts = useTranslations("status");
  const f = useFormat();
  const router = useRouter();
  const [filters, setFilters] = useState(initialFilters);
  const [modelDraft, setModelDraft] = useState(initialFilters.modelId ?? "");
  const query = activityApiQuery(filters);
  const initialQuery = activityApiQuery(initialFilters);
  const { data, error, isFetching } = useQuery({
    queryKey: ["me", "activity", query],
    queryFn: () => apiFetch<Page>(`/me/activity?${query}`),
    // The server's first page, for the filters the page was opened with.
    initialData: query === initialQuery ? initialPage : undefined,
    placeholderData: keepPreviousData,
    staleTime: 5_000,
  });
  const keyName = new Map(keys.map((k) => [k.id, k.name]));
  const opLabel = (op: string) => ((OPERATIONS as readonly string[]).includes(op) ? t(`op_${op}` as "op_run") : op);

  const apply = (next: ActivityFilters) => {
    setFilters(next);
    router.replace(activityPageHref(next), { scroll: false });
  };
  const set = (key: FilterKey, value: string) => apply(withFilter(filters, key, value));

  return (
    <div className="space-y-6">
      <Card>
        <form
          className="grid gap-4 sm:grid-cols-2 lg:grid-cols-[repeat(4,minmax(0,1fr))_auto]"
          onSubmit={(e) => {
            e.preventDefault();
            set("modelId", modelDraft);
          }}
        >
          <Field label={t("model")}>
            <Input
              value={modelDraft}
              onChange={(e) => setModelDraft(e.target.value)}
              onBlur={() => modelDraft !== (filters.modelId ?? "") && set("modelId", modelDraft)}
              placeholder="fal-ai/flux/dev"
              name="modelId"
            />
          </Field>
          <Field label={t("apiKey")}>
            <Select value={filters.apiKeyId ?? ""} onChange={(e) => set("apiKeyId", e.target.value)} name="apiKeyId">
              <option value="">{t("anyKey")}</option>
              {keys.map((k) => (
                <option key={k.id} value={k.id}>
                  {k.name}
                  {k.start ? ` (${k.start}…)` : ""}
                </option>
              ))}
            </Select>
          </Field>
          <Field label={t("operation")}>
            <Select value={filters.operation ?? ""} onChange={(e) => set("operation", e.target.value)} name="operation">
              <option value="">{t("any")}</option>
              {OPERATIONS.map((o) => (
                <option key={o} value={o}>
                  {t(`op_${o}`)}
                </option>
              ))}
            </Select>
          </Field>
          <Field label={t("status")}>
            <Select value={filters.status ?? ""} onChange={(e) => set("status", e.target.value)} name="status">
              <option value="">{t("any")}</option>
              {STATUSES.map((s) => (
                <option key={s} value={s}>
                  {ts(s)}
                </option>
              ))}
            </Select>
          </Field>
          <div className="flex items-end gap-2">
            <Button type="submit" variant="secondary">
              {t("apply")}
            </Button>
            <Button
              type="button"
              variant="ghost"
              onClick={() => {
                setModelDraft("");
                apply({ offset: 0 });
              }}
            >
              {t("clear")}
            </Button>
          </div>
        </form>
      </Card>
      {error && <Alert>{error.message}</Alert>}
      {(data || !error) && (
        <Card
          title={data ? t("records", { count: data.total }) : t("loading")}
          actions={isFetching ? <span className="text-xs text-slate-600">{t("updating")}</span> : null}
        >
          {!data ? null : data.items.length === 0 ? (
            <p className="text-sm text-slate-600" data-testid="activity-empty">
              {t("empty")}
            </p>
          ) : (
            <Table stack head={[t("colRun"), t("colTime"), t("status"), t("colCost"), t("colDuration"), t("colSource"), ""]}>
              {data.items.map((r) => {
                const kind = previewKind(r.preview);
                return (
                  <tr key={r.id} data-testid="activity-row" data-request-id={r.requestId ?? ""}>
                    <Td label={t("colRun")}>
                      <div className="flex min-w-0 items-center gap-3">
                        <RunThumbnail
                          preview={r.preview}
                          alt={t("outputOf", { model: r.modelId ?? t(`op_${r.operation}` as "op_run") })}
                          fallback={kind ? t(`kind_${kind}`) : r.status === "completed" ? t("noPreview") : "—"}
                        />
                        <div className="min-w-0">
                          {r.modelId ? <ModelId id={r.modelId} className="text-xs text-slate-900" /> : "—"}
                          <div className="text-xs text-slate-600" data-testid="activity-operation">
                            {opLabel(r.operation)}
                          </div>
                        </div>
                      </div>
                    </Td>
                    <Td label={t("colTime")}>
                      <WhenText text={f.dateTime(r.createdAt)} />
                    </Td>
                    <Td label={t("status")}>
                      <Badge tone={statusTone(r.status)}>{ts.has(r.status as "completed") ? ts(r.status as "completed") : r.status}</Badge>
                      {r.errorCode && <span className="block font-mono text-xs text-red-700">{r.errorCode}</span>}
                    </Td>
                    <Td label={t("colCost")} className="whitespace-nowrap">
                      {f.money(r.credits, "charge")}
                    </Td>
                    <Td label={t("colDuration")} className="whitespace-nowrap">
                      {f.duration(r.durationMs)}
                    </Td>
                    <Td label={t("colSource")} className="max-w-40 [overflow-wrap:anywhere]">
                      {r.apiKeyId ? t("viaKey", { name: keyName.get(r.apiKeyId) ?? t("deletedKey") }) : t("viaDashboard")}
                    </Td>
                    <Td className="text-right">
                      <Link
                        prefetch={false}
                        href={`/dashboard/activity/${encodeURIComponent(r.id)}`}
                        className="whitespace-nowrap text-brand-700 hover:underline"
                      >
                        {t("details")}
                      </Link>
                    </Td>
                  </tr>
                );
              })}
            </Table>
          )}
          {data && data.total > ACTIVITY_PAGE_SIZE && (
            <div className="mt-4 flex items-center justify-between text-sm text-slate-600">
              <span>
                {t("range", {
                  from: f.number(data.offset + 1),
                  to: f.number(Math.min(data.offset + data.items.length, data.total)),
                  total: f.number(data.total),
                })}
              </span>
              <div className="flex gap-2">
                <Button
                  type="button"
                  variant="secondary"
                  disabled={filters.offset === 0}
                  onClick={() => apply({ ...filters, offset: Math.max(0, filters.offset - ACTIVITY_PAGE_SIZE) })}
                >
                  {t("newer")}
                </Button>
                <Button
                  type="button"
                  variant="secondary"
                  disabled={data.offset + data.items.length >= data.total}
                  onClick={() => apply({ ...filters, offset: filters.offset + ACTIVITY_PAGE_SIZE })}
                >
                  {t("older")}
                </Button>
              </div>
            </div>
          )}
        </Card>
      )}
    </div>
  );
}
