"use client";

import { useTranslations } from "next-intl";
import { useFormat } from "@/lib/i18n/use-format";
import { useMutation } from "@tanstack/react-query";
import type { FormEvent } from "react";
import { Alert, Field, Input } from "@/components/dashboard/ui";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { apiFetch } from "@/lib/account/api-fetch";

type Topup = { payment: { id: string }; confirmationUrl: string | null };

/**
 * Starts a top-up and sends the browser to the provider's confirmation page; it comes back to
 * `returnUrl` (this page on APP_URL: the API refuses a return address on any other origin).
 */
export function TopupForm({ minTopupRub, returnUrl }: { minTopupRub: number; returnUrl: string }) {
  const t = useTranslations("billing");
  const f = useFormat();
  const start = useMutation({
    mutationFn: (body: { amountRub: number; savePaymentMethod: boolean }) =>
      apiFetch<Topup>("/billing/topup", { body: { ...body, returnUrl } }),
    onSuccess: (res) => {
      if (res.confirmationUrl) window.location.assign(res.confirmationUrl);
    },
  });
  function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    start.mutate({ amountRub: Number(form.get("amountRub")), savePaymentMethod: form.get("save") === "on" });
  }
  return (
    <Card title={t("topUp")}>
      <form onSubmit={submit} className="space-y-4">
        <Field label={t("amount")} hint={t("amountHint", { min: f.rubles(minTopupRub, "balance") })}>
          <Input name="amountRub" type="number" min={minTopupRub} step={1} required defaultValue={500} />
        </Field>
        <label className="flex items-center gap-2 text-sm text-slate-700">
          <input type="checkbox" name="save" className="h-4 w-4 rounded border-slate-300" />
          {t("saveCard")}
        </label>
        <Button type="submit" disabled={start.isPending}>
          {start.isPending ? t("redirecting") : t("topUp")}
        </Button>
        {start.error && <Alert>{start.error.message}</Alert>}
      </form>
    </Card>
  );
}
