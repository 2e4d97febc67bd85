"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import {
  ACTIVITY_PAGE_SIZE,
  activityApiQuery,
  activityPageHref,
  formatDuration,
  OPERATIONS,
  STATUSES,
  statusTone,
  withFilter,
  type ActivityFilters,
  type FilterKey,
} from "@/components/generation/activity-filters";
import { Alert, Badge, cellClass, Field, formatTime, Input, Select, Table } from "@/components/dashboard/ui";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { apiFetch } from "@/lib/me/api-fetch";
import { formatCredits } from "@/lib/money/credits";

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
};

type Page = { items: ActivityRecord[]; total: number; limit: number; offset: number };
type KeyOption = { id: string; name: string; start: string | null };

/** GET /me/activity with the page's filters, kept in the URL so a filtered view can be shared and reloaded. */
export function ActivityList({ initialFilters, initialPage, keys }: { initialFilters: ActivityFilters; initialPage?: Page; keys: KeyOption[] }) {
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

  const apply = (next: ActivityFilters) => {
    setFilters(next);
    router.replace(activityPageHref(next), { scroll: false });
  };
  const set = (key: FilterKey, value: string) => apply(withFilter(filters, key, value));

  return (
    <div className="space-y-6">
      <Card>
        <form
          className="grid gap-4 sm:grid-cols-2 lg:grid-cols-5"
          onSubmit={(e) => {
            e.preventDefault();
            set("modelId", modelDraft);
          }}
        >
          <Field label="Model">
            <Input value={modelDraft} onChange={(e) => setModelDraft(e.target.value)} onBlur={() => modelDraft !== (filters.modelId ?? "") && set("modelId", modelDraft)} placeholder="fal-ai/flux/dev" name="modelId" />
          </Field>
          <Field label="API key">
            <Select value={filters.apiKeyId ?? ""} onChange={(e) => set("apiKeyId", e.target.value)} name="apiKeyId">
              <option value="">Any key or the dashboard</option>
              {keys.map((k) => (
                <option key={k.id} value={k.id}>
                  {k.name}
                  {k.start ? ` (${k.start}…)` : ""}
                </option>
              ))}
            </Select>
          </Field>
          <Field label="Operation">
            <Select value={filters.operation ?? ""} onChange={(e) => set("operation", e.target.value)} name="operation">
              <option value="">Any</option>
              {OPERATIONS.map((o) => (
                <option key={o} value={o}>
                  {o}
                </option>
              ))}
            </Select>
          </Field>
          <Field label="Status">
            <Select value={filters.status ?? ""} onChange={(e) => set("status", e.target.value)} name="status">
              <option value="">Any</option>
              {STATUSES.map((s) => (
                <option key={s} value={s}>
                  {s}
                </option>
              ))}
            </Select>
          </Field>
          <div className="flex items-end gap-2">
            <Button type="submit" variant="secondary">
              Apply
            </Button>
            <Button
              type="button"
              variant="ghost"
              onClick={() => {
                setModelDraft("");
                apply({ offset: 0 });
              }}
            >
              Clear
            </Button>
          </div>
        </form>
      </Card>
      {error && <Alert>{error.message}</Alert>}
      {(data || !error) && (
        <Card title={data ? `${data.total} record${data.total === 1 ? "" : "s"}` : "Loading…"} actions={isFetching ? <span className="text-xs text-slate-400">Updating…</span> : null}>
          {!data ? null : data.items.length === 0 ? (
            <p className="text-sm text-slate-600" data-testid="activity-empty">
              Nothing here yet. Runs from the catalog&apos;s playground and the API appear as they finish.
            </p>
          ) : (
            <Table head={["Time", "Model", "Operation", "Status", "Cost", "Duration", "Key", ""]}>
              {data.items.map((r) => (
                <tr key={r.id} data-testid="activity-row" data-request-id={r.requestId ?? ""}>
                  <td className={`${cellClass} whitespace-nowrap`}>{formatTime(r.createdAt)}</td>
                  <td className={`${cellClass} font-mono text-xs`}>{r.modelId ?? "—"}</td>
                  <td className={cellClass}>{r.operation}</td>
                  <td className={cellClass}>
                    <Badge tone={statusTone(r.status)}>{r.status}</Badge>
                    {r.errorCode && <span className="ml-2 font-mono text-xs text-red-700">{r.errorCode}</span>}
                  </td>
                  <td className={`${cellClass} whitespace-nowrap`}>{formatCredits(r.credits)}</td>
                  <td className={`${cellClass} whitespace-nowrap`}>{formatDuration(r.durationMs)}</td>
                  <td className={cellClass}>{r.apiKeyId ? (keyName.get(r.apiKeyId) ?? "deleted key") : "dashboard"}</td>
                  <td className={`${cellClass} text-right`}>
                    <Link href={`/dashboard/activity/${encodeURIComponent(r.id)}`} className="text-brand-700 hover:underline">
                      Details
                    </Link>
                  </td>
                </tr>
              ))}
            </Table>
          )}
          {data && data.total > ACTIVITY_PAGE_SIZE && (
            <div className="mt-4 flex items-center justify-between text-sm text-slate-600">
              <span>
                {data.offset + 1}–{Math.min(data.offset + data.items.length, data.total)} of {data.total}
              </span>
              <div className="flex gap-2">
                <Button type="button" variant="secondary" disabled={filters.offset === 0} onClick={() => apply({ ...filters, offset: Math.max(0, filters.offset - ACTIVITY_PAGE_SIZE) })}>
                  Newer
                </Button>
                <Button type="button" variant="secondary" disabled={data.offset + data.items.length >= data.total} onClick={() => apply({ ...filters, offset: filters.offset + ACTIVITY_PAGE_SIZE })}>
                  Older
                </Button>
              </div>
            </div>
          )}
        </Card>
      )}
    </div>
  );
}
