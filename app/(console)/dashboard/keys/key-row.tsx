"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { useState, type FormEvent } from "react";
import { Badge, Input, Td, WhenText } from "@/components/dashboard/ui";
import { Button } from "@/components/ui/button";
import { useFormat } from "@/lib/i18n/use-format";
import type { ApiKeyView } from "@/lib/account/keys/key-view";
import { apiFetch } from "@/lib/account/api-fetch";
import { keysQueryKey } from "./keys-query";

function status(key: ApiKeyView): { label: "disabled" | "expired" | "active"; tone: "green" | "red" | "slate" } {
  if (!key.enabled) return { label: "disabled", tone: "slate" };
  if (key.expiresAt && Date.parse(key.expiresAt) <= Date.now()) return { label: "expired", tone: "red" };
  return { label: "active", tone: "green" };
}

type Editing = { id: string; field: "name" | "cap"; value: string } | null;

export function KeyRow({ apiKey, onDelete }: { apiKey: ApiKeyView; onDelete: (key: ApiKeyView) => void }) {
  const t = useTranslations("keys");
  const tu = useTranslations("ui");
  const f = useFormat();
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState<Editing>(null);
  const update = useMutation({
    mutationFn: (body: Record<string, unknown>) => apiFetch<ApiKeyView>(`/me/keys/${apiKey.id}`, { method: "PATCH", body }),
    onSuccess: () => {
      setEditing(null);
      void queryClient.invalidateQueries({ queryKey: keysQueryKey });
    },
  });
  const s = status(apiKey);
  function save(e: FormEvent) {
    e.preventDefault();
    if (!editing) return;
    if (editing.field === "name") update.mutate({ name: editing.value });
    else update.mutate({ metadata: { monthlyLimitRub: editing.value.trim() === "" ? null : Number(editing.value) } });
  }
  return (
    <tr data-testid="key-row" data-key-id={apiKey.id}>
      <Td label={t("colKey")}>
        {editing?.field === "name" ? (
          <form onSubmit={save} className="flex gap-2">
            <Input
              aria-label={t("keyName")}
              value={editing.value}
              onChange={(e) => setEditing({ ...editing, value: e.target.value })}
              maxLength={64}
              required
            />
            <Button type="submit" variant="secondary" disabled={update.isPending}>
              {t("save")}
            </Button>
          </form>
        ) : (
          <span className="font-medium text-slate-900">{apiKey.name}</span>
        )}
        <div className="font-mono text-xs text-slate-500">{apiKey.start}…</div>
      </Td>
      <Td label={t("colStatus")}>
        <div className="flex flex-col items-start gap-1">
          <Badge tone={s.tone}>{t(s.label)}</Badge>
          {apiKey.prefix.endsWith("_test") && <Badge tone="amber">{t("testBadge")}</Badge>}
        </div>
      </Td>
      <Td label={t("colCreated")}>
        <div title={f.dateTime(apiKey.createdAt)} className="whitespace-nowrap">
          {f.date(apiKey.createdAt)}
        </div>
        <div className="text-xs text-slate-600">
          <WhenText text={t("expiresAt", { when: f.dateTime(apiKey.expiresAt, tu("never")) })} />
        </div>
      </Td>
      <Td label={t("colUsage")}>
        <div>{t("requests", { count: apiKey.requests })}</div>
        <div className="text-xs text-slate-600">
          <WhenText text={t("lastAt", { when: f.dateTime(apiKey.lastRequest, tu("never")) })} />
        </div>
      </Td>
      <Td label={t("colCap")}>
        {editing?.field === "cap" ? (
          <form onSubmit={save} className="flex gap-2">
            <Input
              aria-label={t("capLabel")}
              type="number"
              min={0}
              step={1}
              placeholder={t("noCap")}
              value={editing.value}
              onChange={(e) => setEditing({ ...editing, value: e.target.value })}
              className="w-28"
            />
            <Button type="submit" variant="secondary" disabled={update.isPending}>
              {t("save")}
            </Button>
          </form>
        ) : (
          <div>{apiKey.monthlyLimitRub === null ? t("noCap") : t("perMonth", { amount: f.rubles(apiKey.monthlyLimitRub, "balance") })}</div>
        )}
        <div className="text-xs text-slate-600">{t("spent", { amount: f.rubles(apiKey.lifetimeCostRub, "balance") })}</div>
      </Td>
      <Td className="text-right">
        {update.error && <div className="mb-1 text-xs text-red-700">{update.error.message}</div>}
        {/* Two by two beside the row (four Russian labels in a line overflowed the card at 1366 px);
            each column as wide as its longest label, or "Переименовать" ran under "Лимит". */}
        <div className="flex justify-end gap-1 max-md:flex-wrap max-md:justify-start md:grid md:grid-cols-[auto_auto] md:justify-items-start md:[&>button]:px-2">
          <Button variant="ghost" onClick={() => setEditing({ id: apiKey.id, field: "name", value: apiKey.name })}>
            {t("rename")}
          </Button>
          <Button
            variant="ghost"
            onClick={() => setEditing({ id: apiKey.id, field: "cap", value: apiKey.monthlyLimitRub?.toString() ?? "" })}
          >
            {t("cap")}
          </Button>
          <Button variant="ghost" disabled={update.isPending} onClick={() => update.mutate({ enabled: !apiKey.enabled })}>
            {apiKey.enabled ? t("disable") : t("enable")}
          </Button>
          <Button variant="ghost" className="text-red-700" onClick={() => onDelete(apiKey)}>
            {t("delete")}
          </Button>
        </div>
      </Td>
    </tr>
  );
}
