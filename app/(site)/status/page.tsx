import { getTranslations } from "next-intl/server";
import { Badge } from "@/components/dashboard/ui";
import { PageHeader } from "@/components/ui/card";
import { getFormat } from "@/lib/i18n/server";
import { currentHealth } from "@/lib/server/health";

export const dynamic = "force-dynamic";

export async function generateMetadata() {
  return { title: (await getTranslations("statusPage"))("title") };
}

const PARTS = ["database", "storage", "jobs", "providers", "payments"] as const;
const TONE = { ok: "green", down: "red", disabled: "slate" } as const;

// What GET /health says, for people: each part's state, the uptime and when it was checked.
export default async function StatusPage() {
  const [health, t, f] = await Promise.all([currentHealth(), getTranslations("statusPage"), getFormat()]);
  const hours = Math.floor(health.uptime / 3600);
  const minutes = Math.floor((health.uptime % 3600) / 60);
  return (
    <div className="mx-auto max-w-3xl px-4 py-10">
      <PageHeader title={t("title")} description={t("description")} />
      <p
        className={`mb-6 rounded-md border px-4 py-3 text-sm font-medium ${health.status === "ok" ? "border-emerald-200 bg-emerald-50 text-emerald-800" : "border-amber-200 bg-amber-50 text-amber-900"}`}
        data-testid="status-overall"
      >
        {t(`overall_${health.status}`)}
      </p>
      <ul className="divide-y divide-slate-100 rounded-lg border border-slate-200 bg-white shadow-sm">
        {PARTS.map((name) => {
          const part = health.parts[name];
          return (
            <li key={name} className="flex items-center justify-between gap-4 px-5 py-3 text-sm" data-testid="status-part" data-part={name}>
              <span className="text-slate-800">{t(`part_${name}`)}</span>
              <Badge tone={TONE[part.status]}>{t(`s_${part.status}`)}</Badge>
            </li>
          );
        })}
      </ul>
      <p className="mt-4 text-sm text-slate-600">
        {t("uptime", { time: `${f.number(hours)} h ${minutes} min`, when: f.dateTime(health.timestamp) })}
      </p>
      <p className="mt-2 text-sm text-slate-600">
        {t.rich("json", {
          link: (chunks) => (
            <a className="text-brand-700 underline" href="/health">
              {chunks}
            </a>
          ),
        })}
      </p>
    </div>
  );
}
