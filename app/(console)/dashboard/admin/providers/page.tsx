import { getTranslations } from "next-intl/server";
import type { Metadata } from "next";
import { Badge, Table, Td } from "@/components/dashboard/ui";
import { Card, PageHeader } from "@/components/ui/card";
import { providerStats, type ProviderStats } from "@/lib/admin/provider-stats";
import { requireAdmin } from "@/lib/auth/viewer";
import { providerConfigured } from "@/lib/generation";
import { getFormat } from "@/lib/i18n/server";
import { cooldownSnapshots, providerNames, type ProviderName } from "@/lib/provider";
import { breakerSnapshots } from "@/lib/provider/circuit-breaker";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("adminProviders"))("title") };
}

const none = (provider: string): ProviderStats => ({
  provider,
  jobs: 0,
  completed: 0,
  failed: 0,
  failovers: 0,
  startLatencyMs: { p50: null, p95: null },
  costCredits: 0,
  costUnknownJobs: 0,
  revenueCredits: 0,
  marginCredits: 0,
});

const known = (p: string): p is ProviderName => (providerNames as readonly string[]).includes(p);

// Admin Providers: each provider's jobs, failovers, start latency and money (GET /admin/stats's
// `providers`), with the breaker and cooldown this server process holds for it.
export default async function AdminProvidersPage() {
  const { db } = await requireAdmin();
  const [stats, t, f] = await Promise.all([providerStats(db), getTranslations("adminProviders"), getFormat()]);
  // Every provider this build knows shows, with or without jobs; a name only old jobs carry too.
  const rows = [...providerNames.filter((p) => !stats.some((s) => s.provider === p)).map(none), ...stats].sort((a, b) =>
    a.provider.localeCompare(b.provider),
  );
  const breakers = new Map(breakerSnapshots().map((b) => [b.provider as string, b]));
  const cooldowns = new Map(cooldownSnapshots().map((c) => [c.provider as string, c]));
  return (
    <>
      <PageHeader title={t("title")} description={t("description")} />
      <Card>
        <Table
          stack
          head={[
            t("colProvider"),
            t("colJobs"),
            t("colCompleted"),
            t("colFailed"),
            t("colFailovers"),
            t("colStart"),
            t("colCost"),
            t("colRevenue"),
            t("colMargin"),
            t("colState"),
          ]}
        >
          {rows.map((p) => {
            const breaker = breakers.get(p.provider);
            const cooldown = cooldowns.get(p.provider);
            return (
              <tr key={p.provider} data-testid="provider-row" data-provider={p.provider}>
                <Td label={t("colProvider")}>
                  <span className="font-medium text-slate-900" translate="no">
                    {p.provider}
                  </span>
                  {known(p.provider) && (
                    <div className="mt-0.5 whitespace-nowrap">
                      {providerConfigured(p.provider) ? (
                        <Badge tone="green">{t("configured")}</Badge>
                      ) : (
                        <Badge tone="amber">{t("notConfigured")}</Badge>
                      )}
                    </div>
                  )}
                </Td>
                <Td label={t("colJobs")} className="tabular-nums">
                  {f.number(p.jobs)}
                </Td>
                <Td label={t("colCompleted")} className="tabular-nums">
                  {f.number(p.completed)}
                </Td>
                <Td label={t("colFailed")} className="tabular-nums">
                  {f.number(p.failed)}
                </Td>
                <Td label={t("colFailovers")} className="tabular-nums">
                  <span title={t("failoversHint")}>{f.number(p.failovers)}</span>
                </Td>
                {/* Each figure whole, the pair on two lines if need be: ten columns fit 1366 px in Russian too. */}
                <Td label={t("colStart")} className="tabular-nums">
                  <span className="whitespace-nowrap">{f.duration(p.startLatencyMs.p50)} /</span>{" "}
                  <span className="whitespace-nowrap">{f.duration(p.startLatencyMs.p95)}</span>
                </Td>
                <Td label={t("colCost")} className="tabular-nums">
                  {f.money(p.costCredits, "charge")}
                  {p.costUnknownJobs > 0 && <div className="text-xs text-slate-600">{t("costUnknown", { count: p.costUnknownJobs })}</div>}
                </Td>
                <Td label={t("colRevenue")} className="tabular-nums">
                  {f.money(p.revenueCredits, "charge")}
                </Td>
                <Td label={t("colMargin")} className={`tabular-nums ${p.marginCredits < 0 ? "text-red-700" : ""}`}>
                  {f.money(p.marginCredits, "charge")}
                </Td>
                <Td label={t("colState")}>
                  {/* A breaker is made on a provider's first call: none yet means closed. */}
                  <span className="whitespace-nowrap">
                    <Badge tone={!breaker || breaker.state === "closed" ? "green" : breaker.state === "open" ? "red" : "amber"}>
                      {t(breaker?.state ?? "closed")}
                    </Badge>
                  </span>
                  {breaker && breaker.retryAfterMs > 0 && (
                    <div className="whitespace-nowrap text-xs text-slate-600">
                      {t("retryIn", { when: f.duration(breaker.retryAfterMs) })}
                    </div>
                  )}
                  {/* Refused a submit lately: tried after a model's other routes until the cooldown ends. */}
                  {cooldown && (
                    <div className="text-xs text-slate-600" data-testid="provider-cooldown">
                      <span className="whitespace-nowrap">{t("cooling", { when: f.duration(cooldown.retryAfterMs) })}</span>{" "}
                      <span translate="no">({cooldown.reason})</span>
                    </div>
                  )}
                </Td>
              </tr>
            );
          })}
        </Table>
        <p className="mt-3 text-xs text-slate-600">{t("moneyNote")}</p>
      </Card>
    </>
  );
}
