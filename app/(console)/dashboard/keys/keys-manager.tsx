"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { ConfirmDialog } from "@/components/dashboard/confirm-dialog";
import { CopyButton } from "@/components/dashboard/copy-button";
import { Alert, Badge, cellClass, Field, formatTime, Input, Select, Table } from "@/components/dashboard/ui";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import type { ApiKeyView } from "@/lib/keys/key-view";
import { apiFetch } from "@/lib/me/api-fetch";

type Created = { id: string; name: string; key: string; expiresAt: string | null };

const expiries = [
  { label: "Never", seconds: null },
  { label: "7 days", seconds: 7 * 86_400 },
  { label: "30 days", seconds: 30 * 86_400 },
  { label: "90 days", seconds: 90 * 86_400 },
  { label: "1 year", seconds: 365 * 86_400 },
];

export const keysQueryKey = ["me", "keys"] as const;

function status(key: ApiKeyView): { label: string; tone: "green" | "red" | "slate" } {
  if (!key.enabled) return { label: "Disabled", tone: "slate" };
  if (key.expiresAt && Date.parse(key.expiresAt) <= Date.now()) return { label: "Expired", tone: "red" };
  return { label: "Active", tone: "green" };
}

function CreateKeyForm({ onCreated }: { onCreated: (key: Created) => void }) {
  const queryClient = useQueryClient();
  const create = useMutation({
    mutationFn: (body: { name: string; expiresIn: number | null; mode: string }) => apiFetch<Created>("/me/keys", { body }),
    onSuccess: (key) => {
      onCreated(key);
      void queryClient.invalidateQueries({ queryKey: keysQueryKey });
    },
  });
  function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const expiry = expiries[Number(form.get("expiry"))]?.seconds ?? null;
    create.mutate({ name: String(form.get("name")), expiresIn: expiry, mode: String(form.get("mode")) });
    e.currentTarget.reset();
  }
  return (
    <form onSubmit={submit} className="grid gap-4 sm:grid-cols-[1fr_10rem_10rem_auto] sm:items-end">
      <Field label="Name">
        <Input name="name" required maxLength={64} placeholder="e.g. production agent" />
      </Field>
      <Field label="Expires">
        <Select name="expiry" defaultValue="0">
          {expiries.map((x, i) => (
            <option key={x.label} value={i}>
              {x.label}
            </option>
          ))}
        </Select>
      </Field>
      <Field label="Mode">
        <Select name="mode" defaultValue="live">
          <option value="live">Live</option>
          <option value="test">Test (sandbox)</option>
        </Select>
      </Field>
      <Button type="submit" disabled={create.isPending}>
        {create.isPending ? "Creating…" : "Create key"}
      </Button>
      {create.error && (
        <div className="sm:col-span-4">
          <Alert>{create.error.message}</Alert>
        </div>
      )}
    </form>
  );
}

function NewKeyPanel({ created, onDone }: { created: Created; onDone: () => void }) {
  return (
    <div className="rounded-lg border border-emerald-200 bg-emerald-50 p-5" data-testid="new-key-panel">
      <p className="font-medium text-emerald-900">Key “{created.name}” created. Copy it now: it will not be shown again.</p>
      <div className="mt-3 flex flex-wrap items-center gap-2">
        <code className="min-w-0 flex-1 break-all rounded bg-white px-3 py-2 font-mono text-sm text-slate-900" data-testid="new-key">
          {created.key}
        </code>
        <CopyButton value={created.key} />
        <Button variant="ghost" onClick={onDone}>
          Done
        </Button>
      </div>
    </div>
  );
}

type Editing = { id: string; field: "name" | "cap"; value: string } | null;

function KeyRow({ apiKey, onDelete }: { apiKey: ApiKeyView; onDelete: (key: ApiKeyView) => void }) {
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

export function KeysManager({ initialKeys }: { initialKeys: ApiKeyView[] }) {
  const queryClient = useQueryClient();
  const [created, setCreated] = useState<Created | null>(null);
  const [deleting, setDeleting] = useState<ApiKeyView | null>(null);
  const { data: keys } = useQuery({
    queryKey: keysQueryKey,
    queryFn: () => apiFetch<{ keys: ApiKeyView[] }>("/me/keys").then((r) => r.keys),
    initialData: initialKeys,
  });
  const remove = useMutation({
    mutationFn: (id: string) => apiFetch(`/me/keys/${id}`, { method: "DELETE" }),
    onSuccess: () => {
      setDeleting(null);
      void queryClient.invalidateQueries({ queryKey: keysQueryKey });
    },
  });
  return (
    <div className="space-y-6">
      <Card title="Create a key">
        <CreateKeyForm onCreated={setCreated} />
      </Card>
      {created && <NewKeyPanel created={created} onDone={() => setCreated(null)} />}
      <Card title={`Your keys (${keys.length})`}>
        {keys.length === 0 ? (
          <p className="text-sm text-slate-600">No keys yet. Create one above.</p>
        ) : (
          <Table head={["Key", "Status", "Created", "Usage", "Monthly cap", ""]}>
            {keys.map((k) => (
              <KeyRow key={k.id} apiKey={k} onDelete={setDeleting} />
            ))}
          </Table>
        )}
      </Card>
      <ConfirmDialog
        open={deleting !== null}
        title={`Delete “${deleting?.name ?? ""}”?`}
        confirmLabel="Delete key"
        pending={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting.id)}
        onClose={() => {
          setDeleting(null);
          remove.reset();
        }}
      >
        <p>Requests with this key fail with 401 from now on. This cannot be undone.</p>
        {remove.error && <p className="mt-2 text-red-700">{remove.error.message}</p>}
      </ConfirmDialog>
    </div>
  );
}
