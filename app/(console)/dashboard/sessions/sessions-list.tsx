"use client";

import { useTranslations } from "next-intl";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { Badge, Table, Td, WhenText } from "@/components/dashboard/ui";
import { DeviceLabel } from "@/components/account/device-label";
import { useFormat } from "@/lib/i18n/use-format";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { apiFetch } from "@/lib/account/api-fetch";
import type { SessionView } from "@/lib/account/sessions";

const sessionsQueryKey = ["me", "sessions"] as const;

export function SessionsList({ initialSessions }: { initialSessions: SessionView[] }) {
  const t = useTranslations("sessions");
  const f = useFormat();
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
      <Table stack head={[t("device"), t("address"), t("signedIn"), t("expires"), ""]}>
        {sessions.map((s) => (
          <tr key={s.id} data-testid="session-row">
            <Td label={t("device")}>
              <div className="max-w-xs">
                <DeviceLabel userAgent={s.userAgent} unknown={t("unknown")} on={(browser, os) => t("deviceOn", { browser, os })} />
              </div>
              {s.current && <Badge tone="brand">{t("thisBrowser")}</Badge>}
            </Td>
            <Td label={t("address")} className="font-mono text-xs">
              {s.ipAddress ?? "—"}
            </Td>
            <Td label={t("signedIn")}>
              <WhenText text={f.dateTime(s.createdAt)} />
            </Td>
            <Td label={t("expires")}>
              <WhenText text={f.dateTime(s.expiresAt)} />
            </Td>
            <Td className="text-right">
              <Button variant="ghost" className="text-red-700" disabled={revoke.isPending} onClick={() => revoke.mutate(s)}>
                {t("revoke")}
              </Button>
            </Td>
          </tr>
        ))}
      </Table>
    </Card>
  );
}
