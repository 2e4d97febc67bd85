"use client";

import { useState, type FormEvent } from "react";
import { Badge, cellClass, formatTime, Input } from "@/components/dashboard/ui";
import { Button } from "@/components/ui/button";
import type { TunedKey } from "@/lib/admin/users/user-keys";
import { apiFetch } from "@/lib/me/api-fetch";
import { useAdminAction } from "./use-admin-action";

type Tuning = { rateLimitEnabled: boolean; rateLimitMax: string; windowMinutes: string };

export function KeyTuningRow({ userId, apiKey, onDelete }: { userId: string; apiKey: TunedKey; onDelete: () => void }) {
  const path = `/admin/users/${encodeURIComponent(userId)}/keys/${encodeURIComponent(apiKey.id)}`;
  const [tuning, setTuning] = useState<Tuning | null>(null);
  const update = useAdminAction((body: Record<string, unknown>) => apiFetch(path, { method: "PATCH", body }));
  function save(e: FormEvent) {
    e.preventDefault();
    if (!tuning) return;
    update.mutate({
      rateLimitEnabled: tuning.rateLimitEnabled,
      rateLimitMax: tuning.rateLimitMax.trim() === "" ? null : Number(tuning.rateLimitMax),
      rateLimitTimeWindow: Math.round(Number(tuning.windowMinutes) * 60_000),
    });
    setTuning(null);
  }
  return (
    <tr data-testid="admin-key-row">
      <td className={cellClass}>
        <div className="font-medium text-slate-900">{apiKey.name}</div>
        <div className="font-mono text-xs text-slate-500">{apiKey.start}…</div>
      </td>
      <td className={cellClass}>{apiKey.enabled ? <Badge tone="green">Enabled</Badge> : <Badge>Disabled</Badge>}</td>
      <td className={cellClass}>
        {apiKey.requests.toLocaleString("en-US")} total · {apiKey.requestCount} in window
        <div className="text-xs text-slate-500">last {formatTime(apiKey.lastRequest, "never")}</div>
      </td>
      <td className={cellClass}>
        {tuning ? (
          <form onSubmit={save} className="flex flex-wrap items-center gap-2">
            <label className="flex items-center gap-1 text-xs">
              <input type="checkbox" checked={tuning.rateLimitEnabled} onChange={(e) => setTuning({ ...tuning, rateLimitEnabled: e.target.checked })} />
              limit
            </label>
            <Input aria-label="Requests per window" className="w-24" type="number" min={0} placeholder="default" required value={tuning.rateLimitMax} onChange={(e) => setTuning({ ...tuning, rateLimitMax: e.target.value })} />
            <span className="text-xs">per</span>
            <Input aria-label="Window in minutes" className="w-20" type="number" min={1} value={tuning.windowMinutes} onChange={(e) => setTuning({ ...tuning, windowMinutes: e.target.value })} />
            <span className="text-xs">min</span>
            <Button type="submit" variant="secondary">
              Save
            </Button>
          </form>
        ) : (
          <div>
            <div className="tabular-nums">
              {apiKey.tuning.rateLimitEnabled
                ? `${apiKey.tuning.rateLimitMax.toLocaleString("en-US")} / ${apiKey.tuning.rateLimitTimeWindow / 60_000} min · ${apiKey.tuning.remaining} left`
                : "Off"}
            </div>
            <button
              type="button"
              className="text-left text-xs text-brand-700 hover:underline"
              onClick={() =>
                setTuning({
                  rateLimitEnabled: apiKey.tuning.rateLimitEnabled,
                  rateLimitMax: String(apiKey.tuning.rateLimitMax),
                  windowMinutes: String(apiKey.tuning.rateLimitTimeWindow / 60_000),
                })
              }
            >
              Tune rate limit
            </button>
          </div>
        )}
        {update.error && <div className="text-xs text-red-700">{update.error.message}</div>}
      </td>
      <td className={`${cellClass} whitespace-nowrap text-right`}>
        <Button variant="ghost" disabled={update.isPending} onClick={() => update.mutate({ enabled: !apiKey.enabled })}>
          {apiKey.enabled ? "Disable" : "Enable"}
        </Button>
        <Button variant="ghost" className="text-red-700" onClick={onDelete}>
          Delete
        </Button>
      </td>
    </tr>
  );
}
