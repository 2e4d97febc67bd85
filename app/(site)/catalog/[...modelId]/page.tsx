import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { cache } from "react";
import { getDb } from "@/db/client";
import { catalogHref } from "@/components/catalog/links";
import { Playground } from "@/components/catalog/playground";
import { PriceTag } from "@/components/catalog/price-tag";
import { listModelsQuery } from "@/lib/api/contracts/models";
import { categoryLabel } from "@/lib/catalog/categories";
import { previewEstimate } from "@/lib/catalog/estimate";
import { currentViewer } from "@/lib/auth/viewer";
import { getModelCard } from "@/lib/catalog/get";
import { env } from "@/lib/env";
import { isApiError } from "@/lib/http/errors";
import { estimateAction } from "../actions";
import { runCostAction } from "../run-actions";

type Params = Promise<{ modelId: string[] }>;
type SearchParams = Promise<Record<string, string | string[] | undefined>>;

const LICENSES = { commercial: "Commercial use", "non-commercial": "Non-commercial", "open-source": "Open source" } as const;

/** One read per request, shared by the metadata and the page; hidden and unknown models are 404. */
const loadCard = cache(async (segments: string[]) => {
  try {
    return await getModelCard(await getDb(), segments.join("/"));
  } catch (err) {
    if (isApiError(err) && (err.code === "unknown_model" || err.code === "invalid_params")) notFound();
    throw err;
  }
});

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const card = await loadCard((await params).modelId);
  return { title: card.displayName, description: card.description };
}

// A model's public page: description, price, licence, a form from its input schema with a live
// estimate, a run button for a signed-in visitor (a sign-in prompt otherwise), and API examples.
export default async function ModelPage({ params, searchParams }: { params: Params; searchParams: SearchParams }) {
  const card = await loadCard((await params).modelId);
  const lang = (await searchParams).lang === "ru" ? "ru" : "en";
  const [initial, viewer] = await Promise.all([previewEstimate(await getDb(), card.modelId, {}), currentViewer()]);
  const thumb = card.thumbnailUrl?.replace(/^https?:\/\/[^/]+(?=\/thumbnails\/)/, "");
  const base = listModelsQuery.parse({});
  return (
    <div className="mx-auto max-w-7xl px-4 py-10">
      <nav className="mb-6 text-sm text-slate-500" aria-label="Breadcrumb">
        <Link href="/catalog" className="hover:text-slate-900">
          Models
        </Link>
        {" / "}
        <Link href={catalogHref(base, { category: [card.category] })} className="hover:text-slate-900">
          {categoryLabel(card.category)}
        </Link>
      </nav>
      <header className="flex flex-col gap-6 md:flex-row">
        {thumb && (
          // eslint-disable-next-line @next/next/no-img-element
          <img src={thumb} alt="" width={256} height={160} className="h-40 w-64 shrink-0 rounded-lg object-cover shadow-sm" />
        )}
        <div className="space-y-3">
          <h1 className="text-3xl font-bold tracking-tight text-slate-900">{card.displayName}</h1>
          <p className="font-mono text-sm text-slate-500" data-testid="model-id">
            {card.modelId}
          </p>
          <p className="max-w-2xl text-slate-700">{card.description}</p>
          <PriceTag model={card} size="lg" />
          <dl className="flex flex-wrap gap-x-6 gap-y-1 text-sm text-slate-600">
            <div>
              <dt className="inline text-slate-400">Lab </dt>
              <dd className="inline">{card.modelLab ?? "Community"}</dd>
            </div>
            {card.modelFamily && (
              <div>
                <dt className="inline text-slate-400">Family </dt>
                <dd className="inline">{card.modelFamily}</dd>
              </div>
            )}
            {card.licenseType && (
              <div>
                <dt className="inline text-slate-400">Licence </dt>
                <dd className="inline">{LICENSES[card.licenseType]}</dd>
              </div>
            )}
          </dl>
          <div className="flex flex-wrap gap-1.5">
            {card.tags.map((tag) => (
              <Link key={tag} href={catalogHref(base, { tag: [tag] })} className="rounded-full border border-slate-200 bg-white px-2 py-0.5 text-xs text-slate-600 hover:border-slate-400">
                #{tag}
              </Link>
            ))}
          </div>
        </div>
      </header>
      <div className="mb-4 mt-10 flex items-center justify-end gap-2 text-sm" aria-label="Language">
        <Link href="?lang=en" aria-current={lang === "en" ? "true" : undefined} className={lang === "en" ? "font-semibold text-slate-900" : "text-brand-700 hover:underline"}>
          English
        </Link>
        <span className="text-slate-300">|</span>
        <Link href="?lang=ru" aria-current={lang === "ru" ? "true" : undefined} className={lang === "ru" ? "font-semibold text-slate-900" : "text-brand-700 hover:underline"}>
          Русский
        </Link>
      </div>
      {card.schema ? (
        <Playground
          key={lang}
          modelId={card.modelId}
          schema={card.schema.input}
          overlay={card.schemaRu?.input ?? null}
          lang={lang}
          baseUrl={env().APP_URL}
          initial={initial}
          estimate={estimateAction}
          signedIn={viewer !== null}
          runCost={runCostAction}
        />
      ) : (
        <p className="rounded-lg border border-dashed border-slate-300 bg-white p-6 text-slate-600">This model&apos;s input schema has not been fetched yet.</p>
      )}
      <p className="mt-8 text-sm text-slate-500">
        JSON: <a className="text-brand-700 hover:underline" href={`/models/${card.modelId}`}>/models/{card.modelId}</a>
      </p>
    </div>
  );
}
