"use client";

import { useTranslations } from "next-intl";
import { useState } from "react";
import { ConfirmDialog } from "@/components/dashboard/confirm-dialog";
import { Table } from "@/components/dashboard/ui";
import { Card } from "@/components/ui/card";
import type { TunedKey } from "@/lib/admin/users/user-keys";
import { apiFetch } from "@/lib/account/api-fetch";
import type { SessionView } from "@/lib/account/sessions";
import { BanCard } from "./ban-card";
import { KeyTuningRow } from "./key-tuning-row";
import { SessionsCard } from "./sessions-card";
import { useAdminAction, type AdminUser } from "./use-admin-action";

export function UserAdmin({
  user,
  sessions,
  keys,
  isSelf,
}: {
  user: AdminUser;
  sessions: SessionView[];
  keys: TunedKey[];
  isSelf: boolean;
}) {
  const t = useTranslations("adminUser");
  const [deleting, setDeleting] = useState<TunedKey | null>(null);
  const remove = useAdminAction((id: string) =>
    apiFetch(`/admin/users/${encodeURIComponent(user.id)}/keys/${encodeURIComponent(id)}`, { method: "DELETE" }).then(() =>
      setDeleting(null),
    ),
  );
  return (
    <div className="space-y-6">
      <BanCard user={user} isSelf={isSelf} />
      <SessionsCard userId={user.id} sessions={sessions} />
      <Card title={t("keys", { count: keys.length })}>
        {keys.length === 0 ? (
          <p className="text-sm text-slate-600">{t("noKeys")}</p>
        ) : (
          <Table head={[t("key"), t("state"), t("requests"), t("rateLimit"), ""]}>
            {keys.map((k) => (
              <KeyTuningRow key={k.id} userId={user.id} apiKey={k} onDelete={() => setDeleting(k)} />
            ))}
          </Table>
        )}
      </Card>
      <ConfirmDialog
        open={deleting !== null}
        title={t("deleteTitle", { name: deleting?.name ?? "" })}
        confirmLabel={t("deleteConfirm")}
        pending={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting.id)}
        onClose={() => setDeleting(null)}
      >
        <p>{t("deleteBody")}</p>
        {remove.error && <p className="mt-2 text-red-700">{remove.error.message}</p>}
      </ConfirmDialog>
    </div>
  );
}
