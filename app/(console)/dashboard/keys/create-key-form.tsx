"use client";

import { useTranslations } from "next-intl";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { FormEvent } from "react";
import { CopyButton } from "@/components/dashboard/copy-button";
import { Alert, Field, Input, Select } from "@/components/dashboard/ui";
import { Button } from "@/components/ui/button";
import { apiFetch } from "@/lib/account/api-fetch";
import { keysQueryKey, type CreatedKey as Created } from "./keys-query";

const expiries = [
  { label: "never", seconds: null },
  { label: "days7", seconds: 7 * 86_400 },
  { label: "days30", seconds: 30 * 86_400 },
  { label: "days90", seconds: 90 * 86_400 },
  { label: "year", seconds: 365 * 86_400 },
] as const;

export function CreateKeyForm({ onCreated }: { onCreated: (key: Created) => void }) {
  const t = useTranslations("keys");
  const queryClient = useQueryClient();
  const create = useMutation({
    mutationFn: (body: { name: string; expiresIn: number | null; mode: string }) => apiFetch<Created>("/me/keys", { body }),
    onSuccess: (key) => {
      onCreated(key);
      void queryClient.invalidateQueries({ queryKey: keysQueryKey });
    },
  });
  function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const expiry = expiries[Number(form.get("expiry"))]?.seconds ?? null;
    create.mutate({ name: String(form.get("name")), expiresIn: expiry, mode: String(form.get("mode")) });
    e.currentTarget.reset();
  }
  return (
    <form onSubmit={submit} className="grid gap-4 sm:grid-cols-[1fr_10rem_10rem_auto] sm:items-end">
      <Field label={t("name")}>
        <Input name="name" required maxLength={64} placeholder={t("namePlaceholder")} />
      </Field>
      <Field label={t("expires")}>
        <Select name="expiry" defaultValue="0">
          {expiries.map((x, i) => (
            <option key={x.label} value={i}>
              {t(x.label)}
            </option>
          ))}
        </Select>
      </Field>
      <Field label={t("mode")}>
        <Select name="mode" defaultValue="live">
          <option value="live">{t("live")}</option>
          <option value="test">{t("test")}</option>
        </Select>
      </Field>
      <Button type="submit" disabled={create.isPending}>
        {create.isPending ? t("creating") : t("createButton")}
      </Button>
      {create.error && (
        <div className="sm:col-span-4">
          <Alert>{create.error.message}</Alert>
        </div>
      )}
    </form>
  );
}

export function NewKeyPanel({ created, onDone }: { created: Created; onDone: () => void }) {
  const t = useTranslations("keys");
  return (
    <div className="rounded-lg border border-emerald-200 bg-emerald-50 p-5" data-testid="new-key-panel">
      <p className="font-medium text-emerald-900">{t("created", { name: created.name })}</p>
      <div className="mt-3 flex flex-wrap items-center gap-2">
        <code className="min-w-0 flex-1 break-all rounded bg-white px-3 py-2 font-mono text-sm text-slate-900" data-testid="new-key">
          {created.key}
        </code>
        <CopyButton value={created.key} />
        <Button variant="ghost" onClick={onDone}>
          {t("done")}
        </Button>
      </div>
    </div>
  );
}
