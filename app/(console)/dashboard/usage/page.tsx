import { cellClass, formatTime, Table } from "@/components/dashboard/ui";
import { Card, PageHeader } from "@/components/ui/card";
import { ShareBar } from "@/components/usage/share-bar";
import { SpendChart } from "@/components/usage/spend-chart";
import { WindowTabs } from "@/components/usage/window-tabs";
import { requireViewer } from "@/lib/auth/viewer";
import { formatCredits } from "@/lib/money/credits";
import { usageByKey } from "@/lib/usage/by-key";
import { usageByModel } from "@/lib/usage/by-model";
import { usageHistory } from "@/lib/usage/history";
import { usageWindows, type HistoryGranularity } from "@/lib/usage/windows";

export const metadata = { title: "Usage" };

const windows = ["24h", "7d", "30d", "90d"] as const;
type PageWindow = (typeof windows)[number];
const granularityOf: Record<PageWindow, HistoryGranularity> = { "24h": "hour", "7d": "day", "30d": "day", "90d": "week" };

export default async function UsagePage({ searchParams }: { searchParams: Promise<{ window?: string }> }) {
  const { db, principal } = await requireViewer();
  const asked = (await searchParams).window;
  const window: PageWindow = windows.find((w) => w === asked) ?? "30d";
  const to = new Date();
  const from = new Date(to.getTime() - usageWindows[window]);
  const [history, byModel, byKey] = await Promise.all([
    usageHistory(db, principal.userId, { from, to, granularity: granularityOf[window] }),
    usageByModel(db, principal.userId, window),
    usageByKey(db, principal.userId, window),
  ]);
  const total = byModel.items.reduce((s, i) => s + i.credits, 0);
  const count = byModel.items.reduce((s, i) => s + i.count, 0);
  const maxModel = Math.max(0, ...byModel.items.map((i) => i.credits));
  const maxKey = Math.max(0, ...byKey.items.map((i) => i.credits));
  return (
    <>
      <PageHeader
        title="Usage"
        description={
          <>
            <span data-testid="usage-total">{formatCredits(total)}</span> over {count.toLocaleString("en-US")} operations in the last {window}. Sandbox (
            <code>_test_</code> key) runs are free and not counted.
          </>
        }
        actions={<WindowTabs windows={windows} current={window} href={(w) => `/dashboard/usage?window=${w}`} />}
      />
      <div className="space-y-6">
        <Card title="Spend over time">
          <SpendChart series={history.series} granularity={history.granularity} />
        </Card>
        <Card title="By model">
          {byModel.items.length === 0 ? (
            <p className="text-sm text-slate-600">Nothing yet.</p>
          ) : (
            <Table head={["Model", "Operations", "Spent", ""]}>
              {byModel.items.map((m) => (
                <tr key={m.modelId} data-testid="usage-model-row">
                  <td className={cellClass}>
                    <div className="font-medium text-slate-900">{m.displayName ?? m.modelId}</div>
                    <div className="text-xs text-slate-500">
                      {m.modelId}
                      {m.priceUnit ? ` · per ${m.priceUnit}` : ""}
                    </div>
                  </td>
                  <td className={`${cellClass} tabular-nums`}>{m.count.toLocaleString("en-US")}</td>
                  <td className={`${cellClass} tabular-nums`}>{formatCredits(m.credits)}</td>
                  <td className={cellClass}>
                    <ShareBar value={m.credits} max={maxModel} />
                  </td>
                </tr>
              ))}
            </Table>
          )}
        </Card>
        <Card title="By API key">
          {byKey.items.length === 0 ? (
            <p className="text-sm text-slate-600">Nothing yet.</p>
          ) : (
            <Table head={["Key", "Operations", "Spent", "Last used", ""]}>
              {byKey.items.map((k) => (
                <tr key={k.apiKeyId ?? "dashboard"} data-testid="usage-key-row">
                  <td className={cellClass}>
                    <div className="font-medium text-slate-900">{k.apiKeyId === null ? "Dashboard" : (k.keyName ?? "Deleted key")}</div>
                    {k.partialKey && <code className="text-xs text-slate-500">{k.partialKey}</code>}
                  </td>
                  <td className={`${cellClass} tabular-nums`}>{k.count.toLocaleString("en-US")}</td>
                  <td className={`${cellClass} tabular-nums`}>{formatCredits(k.credits)}</td>
                  <td className={cellClass}>{formatTime(k.lastUsedAt)}</td>
                  <td className={cellClass}>
                    <ShareBar value={k.credits} max={maxKey} />
                  </td>
                </tr>
              ))}
            </Table>
          )}
        </Card>
      </div>
    </>
  );
}
