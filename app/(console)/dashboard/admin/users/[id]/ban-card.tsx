"use client";

import { useState, type FormEvent } from "react";
import { ConfirmDialog } from "@/components/dashboard/confirm-dialog";
import { Alert, Field, formatTime, Input } from "@/components/dashboard/ui";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { apiFetch } from "@/lib/me/api-fetch";
import { useAdminAction, type AdminUser } from "./use-admin-action";

export function BanCard({ user, isSelf }: { user: AdminUser; isSelf: boolean }) {
  const base = `/admin/users/${encodeURIComponent(user.id)}`;
  const ban = useAdminAction((body: { reason: string | null; expiresAt: string | null }) => apiFetch(`${base}/ban`, { body }));
  const unban = useAdminAction(() => apiFetch(`${base}/unban`, { method: "POST" }));
  // A ban signs the user out at once: the form only asks, the dialog acts.
  const [asking, setAsking] = useState<{ reason: string | null; expiresAt: string | null } | null>(null);
  function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const until = String(form.get("until") ?? "");
    setAsking({ reason: String(form.get("reason") ?? "").trim() || null, expiresAt: until ? new Date(until).toISOString() : null });
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
      <ConfirmDialog
        open={asking !== null}
        title={`Ban ${user.email ?? user.id}?`}
        confirmLabel="Ban"
        pending={ban.isPending}
        onConfirm={() => asking && ban.mutate(asking, { onSettled: () => setAsking(null) })}
        onClose={() => setAsking(null)}
      >
        <p>They are signed out everywhere and their keys answer 403 {asking?.expiresAt ? `until ${formatTime(asking.expiresAt)}` : "until you lift the ban"}.</p>
      </ConfirmDialog>
    </Card>
  );
}
