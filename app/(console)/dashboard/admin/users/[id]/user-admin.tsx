"use client";

import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { ConfirmDialog } from "@/components/dashboard/confirm-dialog";
import { Alert, Badge, cellClass, Field, formatTime, Input, Table } from "@/components/dashboard/ui";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import type { getAdminUserOrThrow } from "@/lib/admin/users/get-user";
import type { TunedKey } from "@/lib/admin/users/user-keys";
import { apiFetch } from "@/lib/me/api-fetch";
import type { SessionView } from "@/lib/me/sessions";

type AdminUser = Awaited<ReturnType<typeof getAdminUserOrThrow>>["user"];

/** Mutations go through the admin API; the server component re-reads afterwards (router.refresh). */
function useAdminAction<T>(fn: (input: T) => Promise<unknown>) {
  const router = useRouter();
  return useMutation({ mutationFn: fn, onSuccess: () => router.refresh() });
}

function BanCard({ user, isSelf }: { user: AdminUser; isSelf: boolean }) {
  const base = `/admin/users/${encodeURIComponent(user.id)}`;
  const ban = useAdminAction((body: { reason: string | null; expiresAt: string | null }) => apiFetch(`${base}/ban`, { body }));
  const unban = useAdminAction(() => apiFetch(`${base}/unban`, { method: "POST" }));
  function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const until = String(form.get("until") ?? "");
    ban.mutate({ reason: String(form.get("reason") ?? "").trim() || null, expiresAt: until ? new Date(until).toISOString() : null });
  }
  if (user.banned) {
    return (
      <Card title="Ban">
        <div className="space-y-3 text-sm">
          <p>
            Banned{user.banReason ? ` for “${user.banReason}”` : ""}, {user.banExpires ? `until ${formatTime(user.banExpires)}` : "indefinitely"}.
          </p>
          {unban.error && <Alert>{unban.error.message}</Alert>}
          <Button variant="secondary" disabled={unban.isPending} onClick={() => unban.mutate(undefined)}>
            Lift the ban
          </Button>
        </div>
      </Card>
    );
  }
  return (
    <Card title="Ban">
      <form onSubmit={submit} className="space-y-3">
        <p className="text-sm text-slate-600">A ban signs the user out everywhere; their keys answer 403 until it lifts.</p>
        <Field label="Reason">
          <Input name="reason" maxLength={500} placeholder="Shown to admins only" />
        </Field>
        <Field label="Until" hint="Leave empty for an indefinite ban. Your local time.">
          <Input name="until" type="datetime-local" />
        </Field>
        {ban.error && <Alert>{ban.error.message}</Alert>}
        <Button type="submit" variant="danger" disabled={ban.isPending || isSelf}>
          {isSelf ? "You cannot ban yourself" : "Ban user"}
        </Button>
      </form>
    </Card>
  );
}

function SessionsCard({ userId, sessions }: { userId: string; sessions: SessionView[] }) {
  const revoke = useAdminAction(() => apiFetch(`/admin/users/${encodeURIComponent(userId)}/sessions`, { method: "DELETE" }));
  return (
    <Card
      title={`Sessions (${sessions.length})`}
      actions={
        sessions.length > 0 && (
          <Button variant="secondary" disabled={revoke.isPending} onClick={() => revoke.mutate(undefined)}>
            Revoke all
          </Button>
        )
      }
    >
      {revoke.error && <Alert>{revoke.error.message}</Alert>}
      {sessions.length === 0 ? (
        <p className="text-sm text-slate-600">Not signed in anywhere.</p>
      ) : (
        <Table head={["Device", "Address", "Signed in", "Expires"]}>
          {sessions.map((s) => (
            <tr key={s.id}>
              <td className={`${cellClass} max-w-xs truncate`}>{s.userAgent ?? "Unknown"}</td>
              <td className={`${cellClass} font-mono text-xs`}>{s.ipAddress ?? "—"}</td>
              <td className={cellClass}>{formatTime(s.createdAt)}</td>
              <td className={cellClass}>{formatTime(s.expiresAt)}</td>
            </tr>
          ))}
        </Table>
      )}
    </Card>
  );
}

type Tuning = { rateLimitEnabled: boolean; rateLimitMax: string; windowMinutes: string };

function KeyTuningRow({ userId, apiKey, onDelete }: { userId: string; apiKey: TunedKey; onDelete: () => void }) {
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

export function UserAdmin({ user, sessions, keys, isSelf }: { user: AdminUser; sessions: SessionView[]; keys: TunedKey[]; isSelf: boolean }) {
  const [deleting, setDeleting] = useState<TunedKey | null>(null);
  const remove = useAdminAction((id: string) =>
    apiFetch(`/admin/users/${encodeURIComponent(user.id)}/keys/${encodeURIComponent(id)}`, { method: "DELETE" }).then(() => setDeleting(null)),
  );
  return (
    <div className="space-y-6">
      <BanCard user={user} isSelf={isSelf} />
      <SessionsCard userId={user.id} sessions={sessions} />
      <Card title={`API keys (${keys.length})`}>
        {keys.length === 0 ? (
          <p className="text-sm text-slate-600">No keys.</p>
        ) : (
          <Table head={["Key", "State", "Requests", "Rate limit", ""]}>
            {keys.map((k) => (
              <KeyTuningRow key={k.id} userId={user.id} apiKey={k} onDelete={() => setDeleting(k)} />
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
        onClose={() => setDeleting(null)}
      >
        <p>The user’s requests with this key fail with 401 from now on.</p>
        {remove.error && <p className="mt-2 text-red-700">{remove.error.message}</p>}
      </ConfirmDialog>
    </div>
  );
}
