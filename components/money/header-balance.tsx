"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import Link from "next/link";
import { usePathname } from "next/navigation";
import { useEffect, useRef } from "react";
import { apiFetch } from "@/lib/account/api-fetch";
import { Money } from "./money";

/** The signed-in user's balance in the cache shared with the playground, which refreshes it after a run. */
export const balanceQueryKey = ["me", "balance"] as const;

/**
 * The balance in a header, linking to Billing. It starts from the amount the server rendered the
 * page with, and reads /me/balance again after each navigation inside the app (a header outlives the
 * pages under it) and whenever the playground's run changes it (same query key).
 */
export function HeaderBalance({ initialCredits, className = "", testId }: { initialCredits: number; className?: string; testId?: string }) {
  const t = useTranslations("site");
  const client = useQueryClient();
  const pathname = usePathname();
  const balance = useQuery({
    queryKey: balanceQueryKey,
    queryFn: () => apiFetch<{ balance: number }>("/me/balance").then((r) => r.balance),
    initialData: initialCredits,
    retry: false,
  });
  // What the server rendered is newer than what this tab's cache held before the navigation.
  useEffect(() => {
    if (client.getQueryData(balanceQueryKey) !== initialCredits) client.setQueryData(balanceQueryKey, initialCredits);
  }, [client, initialCredits]);
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    void client.invalidateQueries({ queryKey: balanceQueryKey });
  }, [pathname, client]);
  return (
    <Link
      href="/dashboard/billing"
      className={`whitespace-nowrap rounded-md border border-slate-200 px-2 py-1 font-medium tabular-nums text-slate-900 hover:border-brand-500 ${className}`}
    >
      <span className="sr-only">{t("balance")}: </span>
      <Money credits={balance.data} kind="balance" testId={testId} />
    </Link>
  );
}
