"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { Badge, cellClass, formatTime, Table } from "@/components/dashboard/ui";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { apiFetch } from "@/lib/me/api-fetch";
import type { SessionView } from "@/lib/me/sessions";

const sessionsQueryKey = ["me", "sessions"] as const;

export function SessionsList({ initialSessions }: { initialSessions: SessionView[] }) {
  const queryClient = useQueryClient();
  const router = useRouter();
  const { data: sessions } = useQuery({
    queryKey: sessionsQueryKey,
    queryFn: () => apiFetch<{ sessions: SessionView[] }>("/me/sessions").then((r) => r.sessions),
    initialData: initialSessions,
  });
  const revoke = useMutation({
    mutationFn: (session: SessionView) => apiFetch(`/me/sessions/${session.id}`, { method: "DELETE" }),
    onSuccess: (_, session) => {
      // Revoking this browser's own session signs it out.
      if (session.current) router.push("/signin?signedOut=1");
      else void queryClient.invalidateQueries({ queryKey: sessionsQueryKey });
    },
  });
  return (
    <Card>
      {revoke.error && <p className="mb-3 text-sm text-red-700">{revoke.error.message}</p>}
      <Table head={["Device", "Address", "Signed in", "Expires", ""]}>
        {sessions.map((s) => (
          <tr key={s.id} data-testid="session-row">
            <td className={cellClass}>
              <div className="max-w-xs truncate" title={s.userAgent ?? undefined}>
                {s.userAgent ?? "Unknown browser"}
              </div>
              {s.current && <Badge tone="brand">This browser</Badge>}
            </td>
            <td className={`${cellClass} font-mono text-xs`}>{s.ipAddress ?? "—"}</td>
            <td className={cellClass}>{formatTime(s.createdAt)}</td>
            <td className={cellClass}>{formatTime(s.expiresAt)}</td>
            <td className={`${cellClass} text-right`}>
              <Button variant="ghost" className="text-red-700" disabled={revoke.isPending} onClick={() => revoke.mutate(s)}>
                Revoke
              </Button>
            </td>
          </tr>
        ))}
      </Table>
    </Card>
  );
}
