"use client";

import { useTranslations } from "next-intl";
import { LocaleSwitcher } from "@/components/site/locale-switcher";
import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import type { FormEvent } from "react";
import { Alert, Field, Input } from "@/components/dashboard/ui";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { apiFetch } from "@/lib/account/api-fetch";
import type { Profile } from "@/lib/account/profile";

export function ProfileForm({ profile }: { profile: Profile }) {
  const t = useTranslations("profile");
  const router = useRouter();
  const save = useMutation({
    mutationFn: (body: { name: string | null; image: string | null; lowBalanceEmailOptOut: boolean }) =>
      apiFetch<{ user: Profile }>("/me", { method: "PATCH", body }),
    onSuccess: () => router.refresh(),
  });
  function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const text = (name: string) => String(form.get(name) ?? "").trim() || null;
    save.mutate({ name: text("name"), image: text("image"), lowBalanceEmailOptOut: form.get("optOut") === "on" });
  }
  return (
    <Card title={t("details")}>
      <form onSubmit={submit} className="max-w-lg space-y-4">
        <Field label={t("email")} hint={t("emailHint")}>
          <Input value={profile.email ?? ""} disabled readOnly />
        </Field>
        <Field label={t("name")}>
          <Input name="name" defaultValue={profile.name ?? ""} maxLength={100} />
        </Field>
        <Field label={t("avatar")} hint={t("avatarHint")}>
          <Input name="image" type="url" defaultValue={profile.image ?? ""} placeholder="https://…" />
        </Field>
        <label className="flex items-start gap-2 text-sm text-slate-700">
          <input type="checkbox" name="optOut" defaultChecked={profile.lowBalanceEmailOptOut} className="mt-0.5" />
          <span>{t("optOut")}</span>
        </label>
        {save.error && <Alert>{save.error.message}</Alert>}
        {save.isSuccess && <Alert tone="green">{t("saved")}</Alert>}
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? t("saving") : t("save")}
        </Button>
      </form>
      <div className="mt-6 max-w-lg space-y-1 border-t border-slate-100 pt-4">
        <p className="text-sm font-medium text-slate-700">{t("language")}</p>
        <LocaleSwitcher />
        <p className="text-xs text-slate-600">{t("languageHint")}</p>
      </div>
    </Card>
  );
}
