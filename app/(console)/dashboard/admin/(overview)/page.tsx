import { getTranslations } from "next-intl/server";
import Link from "next/link";
import { Table, Td } from "@/components/dashboard/ui";
import { Card, PageHeader } from "@/components/ui/card";
import { ShareBar } from "@/components/usage/share-bar";
import { WindowTabs } from "@/components/usage/window-tabs";
import { adminTotals } from "@/lib/admin/stats";
import { requireAdmin } from "@/lib/auth/viewer";
import { getFormat } from "@/lib/i18n/server";
import { topUsers } from "@/lib/billing/usage/top-users";

export async function generateMetadata() {
  return { title: (await getTranslations("admin"))("statsTitle") };
}

const windows = ["24h", "7d", "30d", "90d"] as const;

function Stat({ label, value, hint, testId }: { label: string; value: string; hint?: string; testId: string }) {
  return (
    <Card>
      <p className="text-xs font-semibold uppercase tracking-wider text-slate-600">{label}</p>
      <p className="mt-1 text-2xl font-semibold tabular-nums text-slate-900" data-testid={testId}>
        {value}
      </p>
      {hint && <p className="mt-1 text-xs text-slate-600">{hint}</p>}
    </Card>
  );
}

export default async function AdminStatsPage({ searchParams }: { searchParams: Promise<{ window?: string }> }) {
  const { db } = await requireAdmin();
  const asked = (await searchParams).window;
  const window = windows.find((w) => w === asked) ?? "30d";
  const [stats, top] = await Promise.all([adminTotals(db), topUsers(db, window, 10)]);
  const [t, f] = await Promise.all([getTranslations("admin"), getFormat()]);
  const max = Math.max(0, ...top.items.map((i) => i.credits));
  return (
    <>
      <PageHeader title={t("statsTitle")} description={t("statsDescription")} />
      <div className="mb-6 grid gap-4 sm:grid-cols-2 lg:grid-cols-5">
        <Stat label={t("users")} value={f.number(stats.users)} testId="stat-users" />
        <Stat label={t("activeKeys")} value={f.number(stats.activeApiKeys)} hint={t("activeKeysHint")} testId="stat-keys" />
        <Stat label={t("models")} value={f.number(stats.models)} hint={t("modelsHint")} testId="stat-models" />
        <Stat label={t("issued")} value={f.money(stats.credits.issued, "balance")} hint={t("issuedHint")} testId="stat-issued" />
        <Stat label={t("used")} value={f.money(stats.credits.used, "charge")} hint={t("usedHint")} testId="stat-used" />
      </div>
      <Card
        title={t("topSpenders")}
        actions={<WindowTabs windows={windows} current={window} href={(w) => `/dashboard/admin?window=${w}`} />}
      >
        {top.items.length === 0 ? (
          <p className="text-sm text-slate-600">{t("noSpend", { window })}</p>
        ) : (
          <Table stack head={[t("colUser"), t("colOps"), t("colSpent"), ""]}>
            {top.items.map((u) => (
              <tr key={u.userId} data-testid="top-user-row">
                <Td label={t("colUser")}>
                  <Link
                    prefetch={false}
                    href={`/dashboard/admin/users/${encodeURIComponent(u.userId)}`}
                    className="font-medium text-brand-700 hover:underline"
                  >
                    {u.email ?? u.userId}
                  </Link>
                  {u.name && (
                    <div className="text-xs text-slate-600" translate="no">
                      {u.name}
                    </div>
                  )}
                </Td>
                <Td label={t("colOps")} className="tabular-nums">
                  {f.number(u.count)}
                </Td>
                <Td label={t("colSpent")} className="tabular-nums">
                  {f.money(u.credits, "charge")}
                </Td>
                <Td>
                  <ShareBar value={u.credits} max={max} />
                </Td>
              </tr>
            ))}
          </Table>
        )}
      </Card>
    </>
  );
}
