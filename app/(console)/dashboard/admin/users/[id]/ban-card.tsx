"use client";

import { useTranslations } from "next-intl";
import { useFormat } from "@/lib/i18n/use-format";
import { useState, type FormEvent } from "react";
import { ConfirmDialog } from "@/components/dashboard/confirm-dialog";
import { Alert, Field, Input } from "@/components/dashboard/ui";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { apiFetch } from "@/lib/account/api-fetch";
import { useAdminAction, type AdminUser } from "./use-admin-action";

export function BanCard({ user, isSelf }: { user: AdminUser; isSelf: boolean }) {
  const t = useTranslations("adminUser");
  const f = useFormat();
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
      <Card title={t("banTitle")}>
        <div className="space-y-3 text-sm">
          <p>
            {(() => {
              const until = user.banExpires ? t("untilWhen", { when: f.dateTime(user.banExpires) }) : t("indefinitely");
              return user.banReason ? t("bannedFor", { reason: user.banReason, until }) : t("bannedNoReason", { until });
            })()}
          </p>
          {unban.error && <Alert>{unban.error.message}</Alert>}
          <Button variant="secondary" disabled={unban.isPending} onClick={() => unban.mutate(undefined)}>
            {t("lift")}
          </Button>
        </div>
      </Card>
    );
  }
  return (
    <Card title={t("banTitle")}>
      <form onSubmit={submit} className="space-y-3">
        <p className="text-sm text-slate-600">{t("banNote")}</p>
        <Field label={t("reason")}>
          <Input name="reason" maxLength={500} placeholder={t("reasonPlaceholder")} />
        </Field>
        <Field label={t("until")} hint={t("untilHint")}>
          <Input name="until" type="datetime-local" />
        </Field>
        {ban.error && <Alert>{ban.error.message}</Alert>}
        <Button type="submit" variant="danger" disabled={ban.isPending || isSelf}>
          {isSelf ? t("cannotSelf") : t("banUser")}
        </Button>
      </form>
      <ConfirmDialog
        open={asking !== null}
        title={t("banConfirmTitle", { who: user.email ?? user.id })}
        confirmLabel={t("banConfirm")}
        pending={ban.isPending}
        onConfirm={() => asking && ban.mutate(asking, { onSettled: () => setAsking(null) })}
        onClose={() => setAsking(null)}
      >
        <p>
          {t("banConfirmBody", { until: asking?.expiresAt ? t("untilWhen", { when: f.dateTime(asking.expiresAt) }) : t("untilLifted") })}
        </p>
      </ConfirmDialog>
    </Card>
  );
}
