"use client";

import { useTranslations } from "next-intl";
import { useFormat } from "@/lib/i18n/use-format";
import { useState, type FormEvent } from "react";
import { Badge, cellClass, Input } from "@/components/dashboard/ui";
import { Button } from "@/components/ui/button";
import type { TunedKey } from "@/lib/admin/users/user-keys";
import { apiFetch } from "@/lib/account/api-fetch";
import { useAdminAction } from "./use-admin-action";

type Tuning = { rateLimitEnabled: boolean; rateLimitMax: string; windowMinutes: string };

export function KeyTuningRow({ userId, apiKey, onDelete }: { userId: string; apiKey: TunedKey; onDelete: () => void }) {
  const path = `/admin/users/${encodeURIComponent(userId)}/keys/${encodeURIComponent(apiKey.id)}`;
  const t = useTranslations("adminUser");
  const f = useFormat();
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
        <div className="font-mono text-xs text-slate-600">{apiKey.start}…</div>
      </td>
      <td className={cellClass}>{apiKey.enabled ? <Badge tone="green">{t("enabled")}</Badge> : <Badge>{t("disabled")}</Badge>}</td>
      <td className={cellClass}>
        {t("requestCounts", { total: f.number(apiKey.requests), window: f.number(apiKey.requestCount) })}
        <div className="text-xs text-slate-600">{t("last", { when: f.dateTime(apiKey.lastRequest, t("never")) })}</div>
      </td>
      <td className={cellClass}>
        {tuning ? (
          <form onSubmit={save} className="flex flex-wrap items-center gap-2">
            <label className="flex items-center gap-1 text-xs">
              <input
                type="checkbox"
                checked={tuning.rateLimitEnabled}
                onChange={(e) => setTuning({ ...tuning, rateLimitEnabled: e.target.checked })}
              />
              {t("limit")}
            </label>
            <Input
              aria-label={t("perWindow")}
              className="w-24"
              type="number"
              min={0}
              placeholder={t("default")}
              required
              value={tuning.rateLimitMax}
              onChange={(e) => setTuning({ ...tuning, rateLimitMax: e.target.value })}
            />
            <span className="text-xs">{t("per")}</span>
            <Input
              aria-label={t("windowMinutes")}
              className="w-20"
              type="number"
              min={1}
              value={tuning.windowMinutes}
              onChange={(e) => setTuning({ ...tuning, windowMinutes: e.target.value })}
            />
            <span className="text-xs">{t("min")}</span>
            <Button type="submit" variant="secondary">
              {t("save")}
            </Button>
          </form>
        ) : (
          <div>
            <div className="tabular-nums">
              {apiKey.tuning.rateLimitEnabled
                ? t("limitValue", {
                    max: f.number(apiKey.tuning.rateLimitMax),
                    minutes: f.number(apiKey.tuning.rateLimitTimeWindow / 60_000),
                    left: apiKey.tuning.remaining === null ? "—" : f.number(apiKey.tuning.remaining),
                  })
                : t("off")}
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
              {t("tune")}
            </button>
          </div>
        )}
        {update.error && <div className="text-xs text-red-700">{update.error.message}</div>}
      </td>
      <td className={`${cellClass} whitespace-nowrap text-right`}>
        <Button variant="ghost" disabled={update.isPending} onClick={() => update.mutate({ enabled: !apiKey.enabled })}>
          {apiKey.enabled ? t("disable") : t("enable")}
        </Button>
        <Button variant="ghost" className="text-red-700" onClick={onDelete}>
          {t("delete")}
        </Button>
      </td>
    </tr>
  );
}
