"use client";

import { useTranslations } from "next-intl";
import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { Alert, Badge } from "@/components/dashboard/ui";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { apiFetch } from "@/lib/account/api-fetch";
import type { PaymentMethodView } from "@/lib/billing/payments/methods/method-view";

export function PaymentMethodsCard({ methods }: { methods: PaymentMethodView[] }) {
  const t = useTranslations("billing");
  const router = useRouter();
  const act = useMutation({
    mutationFn: ({ id, action }: { id: string; action: "default" | "delete" }) =>
      action === "delete"
        ? apiFetch(`/me/payment-methods/${id}`, { method: "DELETE" })
        : apiFetch(`/me/payment-methods/${id}/default`, { method: "POST" }),
    onSuccess: () => router.refresh(),
  });
  return (
    <Card title={t("cards")}>
      {methods.length === 0 ? (
        <p className="text-sm text-slate-600">{t("noCards")}</p>
      ) : (
        <ul className="divide-y divide-slate-100">
          {methods.map((m) => (
            <li key={m.id} className="flex items-center justify-between gap-3 py-2 text-sm" data-testid="payment-method">
              <span>
                {m.cardBrand ?? t("card")} •••• {m.cardLast4 ?? "????"} {m.isDefault && <Badge tone="brand">{t("default")}</Badge>}
              </span>
              <span className="flex gap-2">
                {!m.isDefault && (
                  <Button variant="secondary" disabled={act.isPending} onClick={() => act.mutate({ id: m.id, action: "default" })}>
                    {t("makeDefault")}
                  </Button>
                )}
                <Button variant="ghost" disabled={act.isPending} onClick={() => act.mutate({ id: m.id, action: "delete" })}>
                  {t("remove")}
                </Button>
              </span>
            </li>
          ))}
        </ul>
      )}
      {act.error && <Alert>{act.error.message}</Alert>}
    </Card>
  );
}
