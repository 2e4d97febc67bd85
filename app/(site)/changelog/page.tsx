import { getTranslations } from "next-intl/server";
import { publicContext } from "@/lib/auth/context";
import { PageHeader } from "@/components/ui/card";
import { getFormat } from "@/lib/i18n/server";
import { listChangelog } from "@/lib/site/changelog";

export async function generateMetadata() {
  return { title: (await getTranslations("changelog"))("title") };
}

// The published changes (the same list as GET /changelog.json), newest first.
export default async function ChangelogPage() {
  const [{ entries }, t, f] = await Promise.all([
    publicContext().then(({ db }) => listChangelog(db)),
    getTranslations("changelog"),
    getFormat(),
  ]);
  return (
    <div className="mx-auto max-w-3xl px-4 py-10">
      <PageHeader title={t("title")} description={t("description")} />
      {entries.length === 0 ? (
        <p className="text-sm text-slate-600">{t("empty")}</p>
      ) : (
        <ol className="space-y-6" data-testid="changelog">
          {entries.map((e) => (
            <li key={e.version} className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
              <h2 className="font-semibold text-slate-900">
                {e.version} <span className="ml-2 text-sm font-normal text-slate-600">{f.date(`${e.date}T00:00:00Z`)}</span>
              </h2>
              <ul className="mt-2 list-disc space-y-1 pl-5 text-sm text-slate-700">
                {e.notes.map((n, i) => (
                  <li key={i}>{n}</li>
                ))}
              </ul>
            </li>
          ))}
        </ol>
      )}
      <p className="mt-8 text-sm text-slate-600">
        {t.rich("json", {
          link: (chunks) => (
            <a className="text-brand-700 underline" href="/changelog.json">
              {chunks}
            </a>
          ),
        })}
      </p>
    </div>
  );
}
