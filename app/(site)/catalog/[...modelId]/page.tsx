import type { Metadata } from "next";
import { getLocale, getTranslations } from "next-intl/server";
import Link from "next/link";
import { notFound } from "next/navigation";
import { cache } from "react";
import { publicContext } from "@/lib/auth/context";
import { localCategory, localTag } from "@/components/catalog/category-label";
import { catalogHref } from "@/components/catalog/links";
import { Playground } from "@/components/catalog/playground";
import { localDescription } from "@/components/catalog/local-description";
import { PriceTag } from "@/components/catalog/price-tag";
import { listModelsQuery } from "@/lib/catalog/list-query";
import { previewEstimate } from "@/lib/catalog/estimate";
import { currentViewer } from "@/lib/auth/viewer";
import { exampleKindOf } from "@/lib/catalog/example-output";
import { exampleImageUrl, renderedExamplePath } from "@/lib/catalog/example-url";
import { getModelCard } from "@/lib/catalog/get";
import { env } from "@/lib/core/env";
import { isDomainError } from "@/lib/core/errors";
import { estimateAction } from "../actions";
import { runCostAction, runRetryAction } from "../run-actions";

type Params = Promise<{ modelId: string[] }>;

const LICENSES = { commercial: "commercial", "non-commercial": "nonCommercial", "open-source": "openSource" } as const;

/** One read per request, shared by the metadata and the page; hidden and unknown models are 404. */
const loadCard = cache(async (segments: string[]) => {
  try {
    return await getModelCard((await publicContext()).db, segments.join("/"));
  } catch (err) {
    if (isDomainError(err) && (err.code === "unknown_model" || err.code === "invalid_params")) notFound();
    throw err;
  }
});

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const [card, locale] = await Promise.all([loadCard((await params).modelId), getLocale()]);
  return { title: card.displayName, description: localDescription(card, locale).text };
}

// A model's public page: description, price, licence, a form from its input schema with a live
// estimate, a run button for a signed-in visitor (a sign-in prompt otherwise), and API examples.
export default async function ModelPage({ params }: { params: Params }) {
  const card = await loadCard((await params).modelId);
  // The form's labels follow the page's language (the schema's Russian overlay in Russian).
  const lang = await getLocale();
  const description = localDescription(card, lang);
  const [t, tc, ts] = await Promise.all([getTranslations("model"), getTranslations("catalog"), getTranslations("site")]);
  const [initial, viewer] = await Promise.all([previewEstimate((await publicContext()).db, card.modelId, {}), currentViewer()]);
  const example = exampleImageUrl(card);
  const audio = exampleKindOf(card.modelId, card.category) === "audio";
  const base = listModelsQuery.parse({});
  return (
    <div className="mx-auto max-w-7xl px-4 py-10">
      <nav className="mb-6 text-sm text-slate-600" aria-label={t("breadcrumb")}>
        <Link href="/catalog" className="hover:text-slate-900">
          {ts("models")}
        </Link>
        {" / "}
        <Link prefetch={false} href={catalogHref(base, { category: [card.category] })} className="hover:text-slate-900">
          {localCategory(tc, card.category)}
        </Link>
      </nav>
      <header className="flex flex-col gap-6 md:flex-row">
        <figure className="w-full shrink-0 md:w-80" data-testid="model-example-figure">
          {/* eslint-disable-next-line @next/next/no-img-element -- a small JPEG the app renders and caches, or an admin's URL */}
          <img
            src={example}
            alt={t("exampleAlt", { model: card.displayName })}
            width={480}
            height={300}
            className="aspect-[8/5] w-full rounded-lg bg-slate-200 object-cover shadow-sm"
            data-testid="model-example"
          />
          {audio && (
            <audio
              controls
              preload="none"
              src={`${renderedExamplePath(card.modelId)}?as=audio`}
              className="mt-2 w-full"
              aria-label={t("exampleAudio", { model: card.displayName })}
            />
          )}
          <figcaption className="mt-1 text-xs text-slate-600">
            {example.startsWith("/examples/") ? t("exampleSimulated") : t("exampleOutput")}
          </figcaption>
        </figure>
        <div className="space-y-3">
          <h1 className="text-3xl font-bold tracking-tight text-slate-900" translate="no">
            {card.displayName}
          </h1>
          <p className="font-mono text-sm text-slate-600" data-testid="model-id">
            {card.modelId}
          </p>
          <p className="max-w-2xl text-slate-700" lang={description.lang} data-testid="model-description">
            {description.text}
          </p>
          <PriceTag model={card} size="lg" />
          <dl className="flex flex-wrap gap-x-6 gap-y-1 text-sm text-slate-600" data-testid="model-facts">
            <div>
              <dt className="inline text-slate-600">{t("lab")}:</dt>{" "}
              <dd className="inline" translate={card.modelLab ? "no" : undefined}>
                {card.modelLab ?? tc("communityLab")}
              </dd>
            </div>
            {card.modelFamily && (
              <div>
                <dt className="inline text-slate-600">{t("family")}:</dt>{" "}
                <dd className="inline" translate="no">
                  {card.modelFamily}
                </dd>
              </div>
            )}
            {card.licenseType && (
              <div>
                <dt className="inline text-slate-600">{t("licence")}:</dt> <dd className="inline">{t(LICENSES[card.licenseType])}</dd>
              </div>
            )}
          </dl>
          <div className="flex flex-wrap gap-1.5">
            {card.tags.map((tag) => (
              <Link
                prefetch={false}
                key={tag}
                translate={localTag(tc, tag) === null ? "no" : undefined}
                href={catalogHref(base, { tag: [tag] })}
                className="rounded-full border border-slate-200 bg-white px-2 py-0.5 text-xs text-slate-600 hover:border-slate-400"
              >
                #{localTag(tc, tag) ?? tag}
              </Link>
            ))}
          </div>
        </div>
      </header>
      <div className="mt-10" />
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
          runRetry={runRetryAction}
        />
      ) : (
        <p className="rounded-lg border border-dashed border-slate-300 bg-white p-6 text-slate-600">{t("noSchema")}</p>
      )}
      <p className="mt-8 text-sm text-slate-600">
        {t("json")}{" "}
        <a className="text-brand-700 underline" href={`/models/${card.modelId}`}>
          /models/{card.modelId}
        </a>
      </p>
    </div>
  );
}
