import { getTranslations } from "next-intl/server";
import { Table, Td } from "@/components/dashboard/ui";
import { Card, PageHeader } from "@/components/ui/card";
import { ShareBar } from "@/components/usage/share-bar";
import { SpendChart } from "@/components/usage/spend-chart";
import { WindowTabs } from "@/components/usage/window-tabs";
import { requireViewer } from "@/lib/auth/viewer";
import { getFormat } from "@/lib/i18n/server";
import { priceUnits, type PriceUnit } from "@/lib/billing/vocabulary";
import { usageByKey } from "@/lib/billing/usage/by-key";
import { usageByModel } from "@/lib/billing/usage/by-model";
import { usageHistory } from "@/lib/billing/usage/history";
import { usageWindows, type HistoryGranularity } from "@/lib/billing/usage/windows";

const isPriceUnit = (u: string): u is PriceUnit => (priceUnits as readonly string[]).includes(u);

export async function generateMetadata() {
  return { title: (await getTranslations("usage"))("title") };
}

const windows = ["24h", "7d", "30d", "90d"] as const;
type PageWindow = (typeof windows)[number];
const granularityOf: Record<PageWindow, HistoryGranularity> = { "24h": "hour", "7d": "day", "30d": "day", "90d": "week" };

export default async function UsagePage({ searchParams }: { searchParams: Promise<{ window?: string }> }) {
  const ctx = await requireViewer();
  const asked = (await searchParams).window;
  const window: PageWindow = windows.find((w) => w === asked) ?? "30d";
  const to = new Date();
  const from = new Date(to.getTime() - usageWindows[window]);
  const [history, byModel, byKey] = await Promise.all([
    usageHistory(ctx, { from, to, granularity: granularityOf[window] }),
    usageByModel(ctx, window),
    usageByKey(ctx, window),
  ]);
  const [t, f] = await Promise.all([getTranslations("usage"), getFormat()]);
  const total = byModel.items.reduce((s, i) => s + i.credits, 0);
  const count = byModel.items.reduce((s, i) => s + i.count, 0);
  const maxModel = Math.max(0, ...byModel.items.map((i) => i.credits));
  const maxKey = Math.max(0, ...byKey.items.map((i) => i.credits));
  return (
    <>
      <PageHeader
        title={t("title")}
        description={t.rich("summary", {
          amount: f.money(total, "charge"),
          count,
          window,
          total: (chunks) => <span data-testid="usage-total">{chunks}</span>,
          code: (chunks) => <code>{chunks}</code>,
        })}
        actions={<WindowTabs windows={windows} current={window} href={(w) => `/dashboard/usage?window=${w}`} />}
      />
      <div className="space-y-6">
        <Card title={t("overTime")}>
          <SpendChart series={history.series} granularity={history.granularity} />
        </Card>
        <Card title={t("byModel")}>
          {byModel.items.length === 0 ? (
            <p className="text-sm text-slate-600">{t("nothing")}</p>
          ) : (
            <Table stack head={[t("colModel"), t("colOps"), t("colSpent"), ""]}>
              {byModel.items.map((m) => (
                <tr key={m.modelId} data-testid="usage-model-row">
                  <Td label={t("colModel")}>
                    <div className="font-medium text-slate-900">{m.displayName ?? m.modelId}</div>
                    <div className="text-xs text-slate-600">
                      {m.modelId}
                      {m.priceUnit ? ` · ${t("per", { unit: isPriceUnit(m.priceUnit) ? f.unit(m.priceUnit) : m.priceUnit })}` : ""}
                    </div>
                  </Td>
                  <Td label={t("colOps")} className="tabular-nums">
                    {f.number(m.count)}
                  </Td>
                  <Td label={t("colSpent")} className="tabular-nums">
                    {f.money(m.credits, "charge")}
                  </Td>
                  <Td>
                    <ShareBar value={m.credits} max={maxModel} />
                  </Td>
                </tr>
              ))}
            </Table>
          )}
        </Card>
        <Card title={t("byKey")}>
          {byKey.items.length === 0 ? (
            <p className="text-sm text-slate-600">{t("nothing")}</p>
          ) : (
            <Table stack head={[t("colKey"), t("colOps"), t("colSpent"), t("colLast"), ""]}>
              {byKey.items.map((k) => (
                <tr key={k.apiKeyId ?? "dashboard"} data-testid="usage-key-row">
                  <Td label={t("colKey")}>
                    <div className="font-medium text-slate-900">
                      {k.apiKeyId === null ? t("dashboard") : (k.keyName ?? t("deletedKey"))}
                    </div>
                    {k.partialKey && <code className="text-xs text-slate-600">{k.partialKey}</code>}
                  </Td>
                  <Td label={t("colOps")} className="tabular-nums">
                    {f.number(k.count)}
                  </Td>
                  <Td label={t("colSpent")} className="tabular-nums">
                    {f.money(k.credits, "charge")}
                  </Td>
                  <Td label={t("colLast")}>{f.dateTime(k.lastUsedAt)}</Td>
                  <Td>
                    <ShareBar value={k.credits} max={maxKey} />
                  </Td>
                </tr>
              ))}
            </Table>
          )}
        </Card>
      </div>
    </>
  );
}
