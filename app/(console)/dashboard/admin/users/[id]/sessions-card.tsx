"use client";

import { useTranslations } from "next-intl";
import { useFormat } from "@/lib/i18n/use-format";
import { Alert, cellClass, Table } from "@/components/dashboard/ui";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { apiFetch } from "@/lib/account/api-fetch";
import type { SessionView } from "@/lib/account/sessions";
import { useAdminAction } from "./use-admin-action";
import { DeviceLabel } from "@/components/account/device-label";

export function SessionsCard({ userId, sessions }: { userId: string; sessions: SessionView[] }) {
  const t = useTranslations("adminUser");
  const f = useFormat();
  const revoke = useAdminAction(() => apiFetch(`/admin/users/${encodeURIComponent(userId)}/sessions`, { method: "DELETE" }));
  return (
    <Card
      title={t("sessions", { count: sessions.length })}
      actions={
        sessions.length > 0 && (
          <Button variant="secondary" disabled={revoke.isPending} onClick={() => revoke.mutate(undefined)}>
            {t("revokeAll")}
          </Button>
        )
      }
    >
      {revoke.error && <Alert>{revoke.error.message}</Alert>}
      {sessions.length === 0 ? (
        <p className="text-sm text-slate-600">{t("noSessions")}</p>
      ) : (
        <Table head={[t("device"), t("address"), t("signedIn"), t("expires")]}>
          {sessions.map((s) => (
            <tr key={s.id}>
              <td className={`${cellClass} max-w-xs`}>
                <DeviceLabel userAgent={s.userAgent} unknown={t("unknown")} on={(browser, os) => t("deviceOn", { browser, os })} />
              </td>
              <td className={`${cellClass} font-mono text-xs`}>{s.ipAddress ?? "—"}</td>
              <td className={cellClass}>{f.dateTime(s.createdAt)}</td>
              <td className={cellClass}>{f.dateTime(s.expiresAt)}</td>
            </tr>
          ))}
        </Table>
      )}
    </Card>
  );
}
