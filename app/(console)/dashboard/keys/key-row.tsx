"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { Badge, cellClass, formatTime, Input } from "@/components/dashboard/ui";
import { Button } from "@/components/ui/button";
import type { ApiKeyView } from "@/lib/keys/key-view";
import { apiFetch } from "@/lib/me/api-fetch";
import { keysQueryKey } from "./keys-query";

function status(key: ApiKeyView): { label: string; tone: "green" | "red" | "slate" } {
  if (!key.enabled) return { label: "Disabled", tone: "slate" };
  if (key.expiresAt && Date.parse(key.expiresAt) <= Date.now()) return { label: "Expired", tone: "red" };
  return { label: "Active", tone: "green" };
}

type Editing = { id: string; field: "name" | "cap"; value: string } | null;

export function KeyRow({ apiKey, onDelete }: { apiKey: ApiKeyView; onDelete: (key: ApiKeyView) => void }) {
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
      <td className={cellClass}>
        {editing?.field === "name" ? (
          <form onSubmit={save} className="flex gap-2">
            <Input aria-label="Key name" value={editing.value} onChange={(e) => setEditing({ ...editing, value: e.target.value })} maxLength={64} required />
            <Button type="submit" variant="secondary" disabled={update.isPending}>
              Save
            </Button>
          </form>
        ) : (
          <span className="font-medium text-slate-900">{apiKey.name}</span>
        )}
        <div className="font-mono text-xs text-slate-500">{apiKey.start}…</div>
      </td>
      <td className={cellClass}>
        <div className="flex flex-col items-start gap-1">
          <Badge tone={s.tone}>{s.label}</Badge>
          {apiKey.prefix.endsWith("_test") && <Badge tone="amber">Test</Badge>}
        </div>
      </td>
      <td className={cellClass}>
        <div>{formatTime(apiKey.createdAt)}</div>
        <div className="text-xs text-slate-500">expires {formatTime(apiKey.expiresAt, "never")}</div>
      </td>
      <td className={cellClass}>
        <div>{apiKey.requests.toLocaleString("en-US")} requests</div>
        <div className="text-xs text-slate-500">last {formatTime(apiKey.lastRequest, "never")}</div>
      </td>
      <td className={cellClass}>
        {editing?.field === "cap" ? (
          <form onSubmit={save} className="flex gap-2">
            <Input
              aria-label="Monthly cap in rubles"
              type="number"
              min={0}
              step={1}
              placeholder="No cap"
              value={editing.value}
              onChange={(e) => setEditing({ ...editing, value: e.target.value })}
              className="w-28"
            />
            <Button type="submit" variant="secondary" disabled={update.isPending}>
              Save
            </Button>
          </form>
        ) : (
          <div>{apiKey.monthlyLimitRub === null ? "No cap" : `${apiKey.monthlyLimitRub.toLocaleString("en-US")} ₽ / month`}</div>
        )}
        <div className="text-xs text-slate-500">{apiKey.lifetimeCostRub.toLocaleString("en-US")} ₽ spent</div>
      </td>
      <td className={`${cellClass} whitespace-nowrap text-right`}>
        {update.error && <div className="mb-1 text-xs text-red-700">{update.error.message}</div>}
        <Button variant="ghost" onClick={() => setEditing({ id: apiKey.id, field: "name", value: apiKey.name })}>
          Rename
        </Button>
        <Button variant="ghost" onClick={() => setEditing({ id: apiKey.id, field: "cap", value: apiKey.monthlyLimitRub?.toString() ?? "" })}>
          Cap
        </Button>
        <Button variant="ghost" disabled={update.isPending} onClick={() => update.mutate({ enabled: !apiKey.enabled })}>
          {apiKey.enabled ? "Disable" : "Enable"}
        </Button>
        <Button variant="ghost" className="text-red-700" onClick={() => onDelete(apiKey)}>
          Delete
        </Button>
      </td>
    </tr>
  );
}
