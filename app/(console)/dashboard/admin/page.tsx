import Link from "next/link";
import { cellClass, Table } from "@/components/dashboard/ui";
import { Card, PageHeader } from "@/components/ui/card";
import { ShareBar } from "@/components/usage/share-bar";
import { WindowTabs } from "@/components/usage/window-tabs";
import { adminStats } from "@/lib/admin/stats";
import { requireAdmin } from "@/lib/auth/viewer";
import { formatCredits } from "@/lib/money/credits";
import { topUsers } from "@/lib/usage/top-users";

export const metadata = { title: "Admin · Stats" };

const windows = ["24h", "7d", "30d", "90d"] as const;

function Stat({ label, value, hint, testId }: { label: string; value: string; hint?: string; testId: string }) {
  return (
    <Card>
      <p className="text-xs font-semibold uppercase tracking-wider text-slate-500">{label}</p>
      <p className="mt-1 text-2xl font-semibold tabular-nums text-slate-900" data-testid={testId}>
        {value}
      </p>
      {hint && <p className="mt-1 text-xs text-slate-500">{hint}</p>}
    </Card>
  );
}

export default async function AdminStatsPage({ searchParams }: { searchParams: Promise<{ window?: string }> }) {
  const { db } = await requireAdmin();
  const asked = (await searchParams).window;
  const window = windows.find((w) => w === asked) ?? "30d";
  const [stats, top] = await Promise.all([adminStats(db), topUsers(db, window, 10)]);
  const max = Math.max(0, ...top.items.map((i) => i.credits));
  return (
    <>
      <PageHeader title="Stats" description="Users, keys, models and money across the service." />
      <div className="mb-6 grid gap-4 sm:grid-cols-2 lg:grid-cols-5">
        <Stat label="Users" value={stats.users.toLocaleString("en-US")} testId="stat-users" />
        <Stat label="Active API keys" value={stats.activeApiKeys.toLocaleString("en-US")} hint="Enabled, not expired" testId="stat-keys" />
        <Stat label="Models" value={stats.models.toLocaleString("en-US")} hint="Hidden ones included" testId="stat-models" />
        <Stat label="Credits issued" value={formatCredits(stats.credits.issued)} hint="Top-ups and grants, net of clawbacks" testId="stat-issued" />
        <Stat label="Credits used" value={formatCredits(stats.credits.used)} hint="Generations, net of refunds" testId="stat-used" />
      </div>
      <Card title="Top spenders" actions={<WindowTabs windows={windows} current={window} href={(w) => `/dashboard/admin?window=${w}`} />}>
        {top.items.length === 0 ? (
          <p className="text-sm text-slate-600">No spend in the last {window}.</p>
        ) : (
          <Table head={["User", "Operations", "Spent", ""]}>
            {top.items.map((u) => (
              <tr key={u.userId} data-testid="top-user-row">
                <td className={cellClass}>
                  <Link href={`/dashboard/admin/users/${encodeURIComponent(u.userId)}`} className="font-medium text-brand-700 hover:underline">
                    {u.email ?? u.userId}
                  </Link>
                  {u.name && <div className="text-xs text-slate-500">{u.name}</div>}
                </td>
                <td className={`${cellClass} tabular-nums`}>{u.count.toLocaleString("en-US")}</td>
                <td className={`${cellClass} tabular-nums`}>{formatCredits(u.credits)}</td>
                <td className={cellClass}>
                  <ShareBar value={u.credits} max={max} />
                </td>
              </tr>
            ))}
          </Table>
        )}
      </Card>
    </>
  );
}
