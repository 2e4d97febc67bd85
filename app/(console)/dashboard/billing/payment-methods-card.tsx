"use client";

import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { Alert, Badge } from "@/components/dashboard/ui";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { apiFetch } from "@/lib/me/api-fetch";
import type { PaymentMethodView } from "@/lib/payments/methods/method-view";

export function PaymentMethodsCard({ methods }: { methods: PaymentMethodView[] }) {
  const router = useRouter();
  const act = useMutation({
    mutationFn: ({ id, action }: { id: string; action: "default" | "delete" }) =>
      action === "delete" ? apiFetch(`/me/payment-methods/${id}`, { method: "DELETE" }) : apiFetch(`/me/payment-methods/${id}/default`, { method: "POST" }),
    onSuccess: () => router.refresh(),
  });
  return (
    <Card title="Saved cards">
      {methods.length === 0 ? (
        <p className="text-sm text-slate-600">No saved cards. Tick “Save the card” when you top up to use automatic top-ups.</p>
      ) : (
        <ul className="divide-y divide-slate-100">
          {methods.map((m) => (
            <li key={m.id} className="flex items-center justify-between gap-3 py-2 text-sm" data-testid="payment-method">
              <span>
                {m.cardBrand ?? "Card"} •••• {m.cardLast4 ?? "????"} {m.isDefault && <Badge tone="brand">default</Badge>}
              </span>
              <span className="flex gap-2">
                {!m.isDefault && (
                  <Button variant="secondary" disabled={act.isPending} onClick={() => act.mutate({ id: m.id, action: "default" })}>
                    Make default
                  </Button>
                )}
                <Button variant="ghost" disabled={act.isPending} onClick={() => act.mutate({ id: m.id, action: "delete" })}>
                  Remove
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
