"use client";

import { Alert, cellClass, formatTime, Table } from "@/components/dashboard/ui";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { apiFetch } from "@/lib/me/api-fetch";
import type { SessionView } from "@/lib/me/sessions";
import { useAdminAction } from "./use-admin-action";

export function SessionsCard({ userId, sessions }: { userId: string; sessions: SessionView[] }) {
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
