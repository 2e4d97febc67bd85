"use client";

import { useTranslations } from "next-intl";
import { useFormat } from "@/lib/i18n/use-format";
import { useState, type FormEvent } from "react";
import { ConfirmDialog } from "@/components/dashboard/confirm-dialog";
import { Alert, Field, Input } from "@/components/dashboard/ui";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { apiFetch } from "@/lib/account/api-fetch";
import { rubToCredits } from "@/lib/pricing/credits";
import { useAdminAction } from "./use-admin-action";

type Action = "grant" | "clawback";
type Result = { transaction: { amount: number; balanceAfter: number } };

/** Rubles as typed ("500", "12,5") → credits, or null when not a positive amount to 0.0001 ₽. */
function creditsOf(text: string): number | null {
  try {
    const credits = rubToCredits(text.trim().replace(",", "."));
    return credits > 0 ? credits : null;
  } catch {
    return null;
  }
}

type Move = { action: Action; body: { amount: number; description: string | null } };

/**
 * Grant or claw back money (typed in rubles, sent in credits); the ledger row comes back and the
 * page re-reads the balance. Like a ban, the form only asks: the dialog names the amount and the
 * user, and acts.
 */
export function CreditsCard({ user }: { user: { id: string; email: string | null } }) {
  const userId = user.id;
  const t = useTranslations("adminUser");
  const f = useFormat();
  const [amount, setAmount] = useState("");
  const [done, setDone] = useState<string | null>(null);
  const [asking, setAsking] = useState<Move | null>(null);
  const move = useAdminAction(({ action, body }: Move) =>
    apiFetch<Result>(`/admin/users/${encodeURIComponent(userId)}/credits/${action}`, { body }).then((r) => {
      setDone(
        t(action === "grant" ? "granted" : "tookBack", {
          amount: f.exactMoney(Math.abs(r.transaction.amount)) ?? f.money(Math.abs(r.transaction.amount), "balance"),
          balance: f.money(r.transaction.balanceAfter, "balance"),
        }),
      );
      setAmount("");
    }),
  );
  const credits = creditsOf(amount);

  function submit(action: Action) {
    return (e: FormEvent<HTMLButtonElement>) => {
      const form = e.currentTarget.form;
      if (!form || credits === null) return;
      e.preventDefault();
      const description = String(new FormData(form).get("description") ?? "").trim() || null;
      setDone(null);
      setAsking({ action, body: { amount: credits, description } });
    };
  }

  return (
    <Card title={t("moneyTitle")}>
      <form className="space-y-3" onSubmit={(e) => e.preventDefault()}>
        <Field
          label={t("amount")}
          hint={credits === null ? t("amountHint") : t("amountMoney", { amount: f.exactMoney(credits) ?? f.money(credits, "balance") })}
        >
          <Input name="amount" inputMode="decimal" value={amount} onChange={(e) => setAmount(e.target.value)} placeholder="500" required />
        </Field>
        <Field label={t("description")} hint={t("descriptionHint")}>
          <Input name="description" maxLength={500} placeholder={t("descriptionPlaceholder")} />
        </Field>
        {move.error && <Alert>{move.error.message}</Alert>}
        {done && <Alert tone="green">{done}</Alert>}
        <div className="flex gap-2">
          <Button type="submit" disabled={credits === null || move.isPending} onClick={submit("grant")}>
            {t("grant")}
          </Button>
          <Button type="submit" variant="secondary" disabled={credits === null || move.isPending} onClick={submit("clawback")}>
            {t("clawback")}
          </Button>
        </div>
        <p className="text-xs text-slate-600">{t("clawbackNote")}</p>
      </form>
      <ConfirmDialog
        open={asking !== null}
        title={t(asking?.action === "clawback" ? "clawbackConfirmTitle" : "grantConfirmTitle", {
          amount: asking ? (f.exactMoney(asking.body.amount) ?? f.money(asking.body.amount, "balance")) : "",
          who: user.email ?? user.id,
        })}
        confirmLabel={t(asking?.action === "clawback" ? "clawback" : "grant")}
        variant={asking?.action === "clawback" ? "danger" : "primary"}
        pending={move.isPending}
        onConfirm={() => asking && move.mutate(asking, { onSettled: () => setAsking(null) })}
        onClose={() => setAsking(null)}
      >
        <p data-testid="credits-confirm-body">
          {t(asking?.action === "clawback" ? "clawbackConfirmBody" : "grantConfirmBody")}
          {asking?.body.description ? ` ${t("confirmDescription", { description: asking.body.description })}` : ""}
        </p>
      </ConfirmDialog>
    </Card>
  );
}
