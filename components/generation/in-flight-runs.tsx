import { useLocale, useTranslations } from "next-intl";
import Link from "next/link";
import { Badge } from "@/components/dashboard/ui";
import { Card } from "@/components/ui/card";
import type { InFlightRun } from "@/lib/generation";
import { formatFor } from "@/lib/i18n/format";
import { statusTone } from "./activity-filters";

/**
 * The caller's unfinished jobs (the Activity list records a job when it ends): each with its
 * status and, when its provider call failed and is being retried, the attempt and the reason.
 */
export function InFlightRuns({ runs }: { runs: InFlightRun[] }) {
  const t = useTranslations("activity");
  const ts = useTranslations("status");
  const f = formatFor(useLocale());
  return (
    <div className="mb-6">
      <Card title={t("inFlight", { count: runs.length })}>
        <ul className="divide-y divide-slate-100">
          {runs.map((r) => (
            <li
              key={r.id}
              className="flex flex-wrap items-center gap-x-4 gap-y-1 py-2 text-sm"
              data-testid="in-flight-run"
              data-request-id={r.id}
            >
              <span className="whitespace-nowrap text-slate-600">{f.dateTime(r.createdAt)}</span>
              <span className="min-w-0 break-all font-mono text-xs">{r.modelId}</span>
              <Badge tone={statusTone(r.status)}>{ts.has(r.status as "queued") ? ts(r.status as "queued") : r.status}</Badge>
              {r.retry && (
                <span className="flex min-w-0 flex-wrap items-center gap-2" data-testid="activity-retrying">
                  <Badge tone="amber">{t("retryBadge", { attempt: r.retry.attempt + 1, max: r.retry.maxAttempts })}</Badge>
                  <span className="text-xs text-slate-700">{t(r.retry.failing === "submit" ? "retryWhySubmit" : "retryWhyPoll")}</span>
                </span>
              )}
              <Link
                prefetch={false}
                href={`/dashboard/activity/${encodeURIComponent(r.id)}`}
                className="ml-auto text-brand-700 hover:underline"
              >
                {t("details")}
              </Link>
            </li>
          ))}
        </ul>
      </Card>
    </div>
  );
}
