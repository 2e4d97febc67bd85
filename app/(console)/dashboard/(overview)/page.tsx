import { getTranslations } from "next-intl/server";
import Link from "next/link";
import type { ReactNode } from "react";
import { Badge } from "@/components/dashboard/ui";
import { ModelId } from "@/components/generation/model-id";
import { RunThumbnail } from "@/components/generation/run-thumbnail";
import { Money } from "@/components/money/money";
import { statusTone } from "@/components/generation/activity-filters";
import { ButtonLink } from "@/components/ui/button";
import { Card, PageHeader } from "@/components/ui/card";
import { SpendChart } from "@/components/usage/spend-chart";
import { WindowTabs } from "@/components/usage/window-tabs";
import { requireViewer } from "@/lib/auth/viewer";
import { readBalance } from "@/lib/billing/balance/read-balance";
import { listKeys } from "@/lib/account/keys/list-keys";
import { getFormat } from "@/lib/i18n/server";
import { usageHistory } from "@/lib/billing/usage/history";
import { recentRuns } from "@/lib/billing/usage/recent-runs";
import { bucketStart } from "@/lib/billing/usage/windows";

export async function generateMetadata() {
  return { title: (await getTranslations("overview"))("title") };
}
export const dynamic = "force-dynamic";

const spendWindows = ["7d", "30d"] as const;
type SpendWindow = (typeof spendWindows)[number];
const spendDays: Record<SpendWindow, number> = { "7d": 7, "30d": 30 };
const DAY_MS = 86_400_000;

function Step({ done, children, doneLabel, todoLabel }: { done: boolean; children: ReactNode; doneLabel: string; todoLabel: string }) {
  return (
    <li className="flex items-start gap-3" data-done={done}>
      <span
        aria-hidden
        className={`mt-0.5 inline-flex h-5 w-5 shrink-0 items-center justify-center rounded-full text-xs font-bold ${done ? "bg-emerald-600 text-white" : "border border-slate-300 text-slate-600"}`}
      >
        {done ? "✓" : ""}
      </span>
      <span className={done ? "text-slate-600 line-through" : "text-slate-800"}>
        {children}
        <span className="sr-only"> {done ? doneLabel : todoLabel}</span>
      </span>
    </li>
  );
}

/**
 * The signed-in user's overview: balance, spend over 7 or 30 days, the latest runs with their
 * pictures, the keys in use, and the first steps until they are done. One query per widget, each
 * through the domain function its own page or API uses, each with the viewer's id in its WHERE.
 */
export default async function OverviewPage({ searchParams }: { searchParams: Promise<{ spend?: string }> }) {
  const ctx = await requireViewer();
  const { db, principal } = ctx;
  const userId = principal.userId;
  const asked = (await searchParams).spend;
  const window: SpendWindow = spendWindows.find((w) => w === asked) ?? "7d";
  // The last 7 (30) UTC calendar days, today included: one bar per day.
  const to = new Date();
  const from = new Date(bucketStart(to, "day").getTime() - (spendDays[window] - 1) * DAY_MS);
  const [balance, history, runs, keys] = await Promise.all([
    readBalance(db, userId),
    usageHistory(ctx, { from, to, granularity: "day" }),
    recentRuns(db, userId, 6),
    listKeys(ctx),
  ]);
  const [t, ts, f] = await Promise.all([getTranslations("overview"), getTranslations("status"), getFormat()]);
  const [tu, ta] = await Promise.all([getTranslations("ui"), getTranslations("activity")]);
  const statusLabel = (s: string) => (ts.has(s as "completed") ? ts(s as "completed") : s);
  const link = (href: string) =>
    function StepLink(chunks: ReactNode) {
      return (
        <Link href={href} className="font-medium text-brand-700 underline">
          {chunks}
        </Link>
      );
    };
  const marks = { doneLabel: t("done"), todoLabel: t("todo") };
  const spent = history.series.reduce((s, p) => s + p.credits, 0);
  const operations = history.series.reduce((s, p) => s + p.count, 0);
  const liveKeys = keys.filter((k) => k.enabled && (!k.expiresAt || Date.parse(k.expiresAt) > to.getTime()));
  const keysInUse = [...liveKeys].sort((a, b) => (b.lastRequest ?? "").localeCompare(a.lastRequest ?? "")).slice(0, 5);
  const steps = { key: keys.length > 0, money: balance.credits > 0 || balance.spentCredits > 0, run: runs.length > 0 };
  const allDone = steps.key && steps.money && steps.run;

  return (
    <>
      <PageHeader title={t("title")} description={t("description")} />
      <div className="space-y-6">
        {!allDone && (
          <Card title={t("gettingStarted")}>
            <ol className="space-y-3 text-sm" data-testid="getting-started">
              <Step done={steps.key} {...marks}>
                {t.rich("stepKey", { link: link("/dashboard/keys") })}
              </Step>
              <Step done={steps.money} {...marks}>
                {t.rich("stepMoney", { link: link("/dashboard/billing") })}
              </Step>
              <Step done={steps.run} {...marks}>
                {t.rich("stepRun", { link: link("/catalog") })}
              </Step>
            </ol>
          </Card>
        )}
        <div className="grid gap-6 lg:grid-cols-3">
          <Card title={t("balance")}>
            <p className="text-3xl font-semibold tabular-nums text-slate-900">
              <Money credits={balance.credits} kind="balance" testId="overview-balance" />
            </p>
            <p className="mt-1 text-sm text-slate-600">{t("spentTotal", { amount: f.money(balance.spentCredits, "charge") })}</p>
            <ButtonLink href="/dashboard/billing" className="mt-4">
              {t("topUp")}
            </ButtonLink>
          </Card>
          <Card
            title={t("spend")}
            className="min-w-0 lg:col-span-2"
            actions={<WindowTabs windows={spendWindows} current={window} href={(w) => `/dashboard?spend=${w}`} />}
          >
            <p className="text-sm text-slate-600">
              <span className="text-2xl font-semibold tabular-nums text-slate-900" data-testid="overview-spend">
                {f.money(spent, "charge")}
              </span>{" "}
              {t("spendWindow", { days: spendDays[window] })} · <span data-testid="overview-operations">{f.number(operations)}</span>{" "}
              {t("operations", { count: operations })}
            </p>
            <div className="mt-3">
              <SpendChart series={history.series} granularity="day" />
            </div>
          </Card>
        </div>
        <Card
          title={t("recent")}
          actions={
            runs.length > 0 ? (
              <Link href="/dashboard/activity" className="text-sm text-brand-700 hover:underline">
                {t("viewAll")}
              </Link>
            ) : null
          }
        >
          {runs.length === 0 ? (
            <p className="text-sm text-slate-600">{t("noRuns")}</p>
          ) : (
            // A run's page is opened one at a time: fetched on a click, not six ahead (issue 40).
            <ul className="grid grid-cols-2 gap-4 sm:grid-cols-3 xl:grid-cols-6" data-testid="recent-runs">
              {runs.map((r) => (
                <li key={r.id} data-testid="recent-run" data-status={r.status}>
                  <Link
                    prefetch={false}
                    href={`/dashboard/activity/${encodeURIComponent(r.id)}`}
                    className="group block min-w-0 rounded-lg border border-slate-200 bg-white p-2 hover:border-brand-500"
                  >
                    <RunThumbnail
                      size="fill"
                      preview={r.thumbnailUrl ? { url: r.thumbnailUrl, contentType: "image/*" } : null}
                      alt={t("outputOf", { model: r.modelId ?? ta(`op_${r.operation}` as "op_run") })}
                      fallback={
                        r.status === "completed"
                          ? t("noPreview")
                          : r.credits === 0 && (r.status === "failed" || r.status === "cancelled")
                            ? t(r.status === "failed" ? "failedFree" : "cancelledFree")
                            : t("noOutput")
                      }
                    />
                    <p className="mt-2 min-w-0 text-xs text-slate-800" title={r.modelId ?? undefined}>
                      {r.modelId ? <ModelId id={r.modelId} /> : ta(`op_${r.operation}` as "op_run")}
                    </p>
                    <div className="mt-1 flex flex-wrap items-center justify-between gap-1 text-xs text-slate-600">
                      <Badge tone={statusTone(r.status)}>{statusLabel(r.status)}</Badge>
                      <span className="tabular-nums">{f.money(r.credits, "charge")}</span>
                    </div>
                    <p className="mt-1 text-xs text-slate-600">{f.dateTime(r.createdAt)}</p>
                  </Link>
                </li>
              ))}
            </ul>
          )}
        </Card>
        <Card
          title={t("keysInUse", { count: liveKeys.length })}
          actions={
            <Link href="/dashboard/keys" className="text-sm text-brand-700 hover:underline">
              {t("manageKeys")}
            </Link>
          }
        >
          {keysInUse.length === 0 ? (
            <p className="text-sm text-slate-600">{t("noKeys")}</p>
          ) : (
            <ul className="divide-y divide-slate-100" data-testid="keys-in-use">
              {keysInUse.map((k) => (
                <li key={k.id} className="flex flex-wrap items-center justify-between gap-2 py-2 text-sm">
                  <span className="min-w-0">
                    <span className="font-medium text-slate-900">{k.name}</span>{" "}
                    <span className="font-mono text-xs text-slate-600">{k.start}…</span>
                  </span>
                  <span className="text-slate-600">{t("keyUse", { count: k.requests, last: f.dateTime(k.lastRequest, tu("never")) })}</span>
                </li>
              ))}
            </ul>
          )}
        </Card>
      </div>
    </>
  );
}
