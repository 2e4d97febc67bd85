"use client";

import { useTranslations } from "next-intl";
import { useFormat } from "@/lib/i18n/use-format";
import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import type { FormEvent } from "react";
import { Alert, Field, Input } from "@/components/dashboard/ui";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { apiFetch } from "@/lib/account/api-fetch";
import type { AutoTopupSettings } from "@/lib/billing/payments/auto-topup/settings";

export function AutoTopupForm({ settings, minTopupRub, hasCard }: { settings: AutoTopupSettings; minTopupRub: number; hasCard: boolean }) {
  const t = useTranslations("billing");
  const f = useFormat();
  const router = useRouter();
  const save = useMutation({
    mutationFn: (body: AutoTopupSettings) => apiFetch<AutoTopupSettings>("/me/auto-topup", { method: "PATCH", body }),
    onSuccess: () => router.refresh(),
  });
  function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    save.mutate({
      enabled: form.get("enabled") === "on",
      thresholdRub: Number(form.get("thresholdRub")),
      amountRub: Number(form.get("amountRub")),
    });
  }
  return (
    <Card title={t("auto")}>
      <form onSubmit={submit} className="space-y-4">
        <label className="flex items-center gap-2 text-sm text-slate-700">
          <input type="checkbox" name="enabled" defaultChecked={settings.enabled} className="h-4 w-4 rounded border-slate-300" />
          {t("autoEnable")}
        </label>
        <div className="grid gap-4 sm:grid-cols-2">
          <Field label={t("threshold")}>
            <Input name="thresholdRub" type="number" min={0} step={1} required defaultValue={settings.thresholdRub || 100} />
          </Field>
          <Field label={t("autoAmount")} hint={t("atLeast", { min: f.rubles(minTopupRub, "balance") })}>
            <Input
              name="amountRub"
              type="number"
              min={minTopupRub}
              step={1}
              required
              defaultValue={settings.amountRub || Math.max(minTopupRub, 500)}
            />
          </Field>
        </div>
        {!hasCard && settings.enabled && <Alert tone="amber">{t("noCardWarning")}</Alert>}
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? t("saving") : t("save")}
        </Button>
        {save.isSuccess && <Alert tone="green">{t("saved")}</Alert>}
        {save.error && <Alert>{save.error.message}</Alert>}
      </form>
    </Card>
  );
}
