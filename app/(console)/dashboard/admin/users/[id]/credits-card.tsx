"use client";

import { useState, type FormEvent } from "react";
import { Alert, Field, Input } from "@/components/dashboard/ui";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { apiFetch } from "@/lib/me/api-fetch";
import { formatCredits, rubToCredits } from "@/lib/money/credits";
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

/** Grant or claw back credits; the ledger row comes back and the page re-reads the balance. */
export function CreditsCard({ userId }: { userId: string }) {
  const [amount, setAmount] = useState("");
  const [done, setDone] = useState<string | null>(null);
  const move = useAdminAction(({ action, body }: { action: Action; body: { amount: number; description: string | null } }) =>
    apiFetch<Result>(`/admin/users/${encodeURIComponent(userId)}/credits/${action}`, { body }).then((r) => {
      setDone(`${action === "grant" ? "Granted" : "Took back"} ${formatCredits(Math.abs(r.transaction.amount))}; balance now ${formatCredits(r.transaction.balanceAfter)}.`);
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
      move.mutate({ action, body: { amount: credits, description } });
    };
  }

  return (
    <Card title="Credits">
      <form className="space-y-3" onSubmit={(e) => e.preventDefault()}>
        <Field label="Amount, ₽" hint={credits === null ? "Rubles, up to 4 decimals" : `${credits.toLocaleString("en-US")} credits`}>
          <Input name="amount" inputMode="decimal" value={amount} onChange={(e) => setAmount(e.target.value)} placeholder="500" required />
        </Field>
        <Field label="Description" hint="Shown in the user's transaction list">
          <Input name="description" maxLength={500} placeholder="Goodwill credit" />
        </Field>
        {move.error && <Alert>{move.error.message}</Alert>}
        {done && <Alert tone="green">{done}</Alert>}
        <div className="flex gap-2">
          <Button type="submit" disabled={credits === null || move.isPending} onClick={submit("grant")}>
            Grant
          </Button>
          <Button type="submit" variant="secondary" disabled={credits === null || move.isPending} onClick={submit("clawback")}>
            Claw back
          </Button>
        </div>
        <p className="text-xs text-slate-500">A clawback never takes the balance below zero: it takes at most what is there.</p>
      </form>
    </Card>
  );
}
