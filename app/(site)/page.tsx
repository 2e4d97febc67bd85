import { getTranslations } from "next-intl/server";
import { connection } from "next/server";
import Link from "next/link";
import { McpConnect } from "@/components/agents/mcp-connect";
import { ModelGrid } from "@/components/catalog/model-grid";
import { publicContext } from "@/lib/auth/context";
import { listModels } from "@/lib/catalog/list";
import { listModelsQuery } from "@/lib/catalog/list-query";
import { ButtonLink } from "@/components/ui/button";
import { env } from "@/lib/core/env";

export default async function HomePage() {
  // The MCP snippet carries this deployment's URL, known at run time (APP_URL), not at build time.
  await connection();
  const t = await getTranslations("home");
  const features = ([1, 2, 3, 4] as const).map((i) => ({ title: t(`f${i}Title`), body: t(`f${i}Body`) }));
  // What the gateway makes: the most-run models' example outputs (a kept catalog page, no scan).
  const popular = await listModels((await publicContext()).db, listModelsQuery.parse({ limit: "3" }));
  return (
    <div>
      <section className="bg-gradient-to-b from-white to-slate-50">
        <div className="mx-auto max-w-7xl px-4 py-20">
          <p className="text-sm font-medium uppercase tracking-wider text-brand-600">Generation Gateway</p>
          <h1 className="mt-3 max-w-3xl text-4xl font-bold tracking-tight text-slate-900 sm:text-5xl">{t("title")}</h1>
          <p className="mt-5 max-w-2xl text-lg text-slate-600">{t("lead")}</p>
          <div className="mt-8 flex flex-wrap gap-3">
            <ButtonLink href="/catalog">{t("browse")}</ButtonLink>
            <ButtonLink href="/docs" variant="secondary">
              {t("reference")}
            </ButtonLink>
          </div>
          <pre tabIndex={0} className="mt-10 max-w-2xl overflow-x-auto rounded-lg bg-slate-900 p-4 text-sm text-slate-100">
            {`curl -X POST "$BASE_URL/run/fal-ai/flux/dev" \\
  -H "Authorization: Bearer $API_KEY" \\
  -H "Content-Type: application/json" \\
  -d '{"prompt": "a lighthouse at dawn, oil painting"}'`}
          </pre>
        </div>
      </section>
      <section className="mx-auto max-w-7xl px-4 pt-12" aria-labelledby="outputs">
        <div className="mb-4 flex flex-wrap items-baseline justify-between gap-2">
          <div>
            <h2 id="outputs" className="text-2xl font-bold tracking-tight text-slate-900">
              {t("outputs")}
            </h2>
            <p className="mt-1 text-sm text-slate-600">{t("outputsLead")}</p>
          </div>
          <Link href="/catalog" className="text-sm font-medium text-brand-700 hover:underline">
            {t("allModels")}
          </Link>
        </div>
        <ModelGrid items={popular.items} />
      </section>
      <section className="mx-auto grid max-w-7xl gap-6 px-4 py-12 sm:grid-cols-2">
        {features.map((f) => (
          <div key={f.title} className="rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
            <h2 className="font-semibold text-slate-900">{f.title}</h2>
            <p className="mt-2 text-sm text-slate-600">{f.body}</p>
          </div>
        ))}
      </section>
      <section className="mx-auto max-w-7xl px-4 pb-16" aria-labelledby="connect-agent">
        <h2 id="connect-agent" className="text-2xl font-bold tracking-tight text-slate-900">
          {t("connect")}
        </h2>
        <div className="mt-4">
          <McpConnect appUrl={env().APP_URL} />
        </div>
      </section>
    </div>
  );
}
