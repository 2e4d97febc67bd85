"use client";

import { useTranslations } from "next-intl";
import { useFormat } from "@/lib/i18n/use-format";
import { Fragment, useEffect, useRef, useState } from "react";
import type { PriceUnit } from "@/db/schema/models";
import type { AdminModelRecord } from "@/lib/catalog/admin-record";
import { exampleImageUrl } from "@/lib/catalog/example-url";
import { localCategory } from "../category-label";
import { RoutesEditor, type ProviderConfigured } from "./routes-editor";
import { ModelId } from "@/components/generation/model-id";
import { WhenText } from "@/components/dashboard/ui";
import {
  type AdminModelsPage,
  isAdminApiError,
  useAdminModels,
  useDeleteModel,
  useSyncCatalog,
  useSyncModel,
  useUpdateModel,
} from "./use-admin-models";

// Not imported from the schema module: that would ship drizzle's table builder to the browser.
const priceUnits = ["image", "megapixel", "second", "request", "1k_chars"] as const satisfies readonly PriceUnit[];
const cell = "px-3 py-2 align-top";
const field = "w-full rounded border border-slate-300 px-2 py-1 text-sm";
const label = "block space-y-1 text-xs font-medium text-slate-700";

function PriceEditor({ model, onDone }: { model: AdminModelRecord; onDone: () => void }) {
  const t = useTranslations("adminModels");
  const f = useFormat();
  const update = useUpdateModel();
  // The admin edits the list price; the discount is taken from it (priceRub is what is charged).
  const listPrice = model.originalPriceRub ?? model.priceRub;
  const [price, setPrice] = useState(listPrice === null ? "" : String(listPrice));
  const [unit, setUnit] = useState(model.priceUnit ?? "");
  const [discount, setDiscount] = useState(String(model.discountPercent));
  const issues = isAdminApiError(update.error) ? update.error.issues : [];
  // Opening the editor puts the cursor in the price, where the edit starts.
  const priceRef = useRef<HTMLInputElement>(null);
  useEffect(() => priceRef.current?.focus(), []);
  return (
    <form
      className="space-y-2"
      data-testid="price-editor"
      onSubmit={(e) => {
        e.preventDefault();
        update.mutate(
          {
            modelId: model.modelId,
            ...(price.trim() === "" ? { priceRub: null } : { originalPriceRub: price.trim() }),
            priceUnit: unit || null,
            discountPercent: discount.trim() || "0",
          },
          { onSuccess: onDone },
        );
      }}
    >
      <div className="grid grid-cols-[minmax(0,1fr)_5rem] gap-2">
        <label className={label}>
          <span>{t("price")}</span>
          <input
            ref={priceRef}
            className={field}
            value={price}
            onChange={(e) => setPrice(e.target.value)}
            placeholder="0.00035"
            inputMode="decimal"
          />
        </label>
        <label className={label}>
          <span>{t("discount")}</span>
          <input className={field} value={discount} onChange={(e) => setDiscount(e.target.value)} inputMode="decimal" />
        </label>
        <label className={`${label} col-span-2`}>
          <span>{t("unit")}</span>
          <select className={field} value={unit} onChange={(e) => setUnit(e.target.value)}>
            <option value="">{t("perRequestCost")}</option>
            {priceUnits.map((u) => (
              <option key={u} value={u}>
                {f.unit(u)}
              </option>
            ))}
          </select>
        </label>
      </div>
      {update.error && (
        <p className="text-xs text-red-600">
          {issues.length ? issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ") : update.error.message}
        </p>
      )}
      <div className="flex gap-2">
        <button
          type="submit"
          disabled={update.isPending}
          className="rounded bg-brand-600 px-3 py-1 text-xs font-medium text-white disabled:opacity-50"
        >
          {t("save")}
        </button>
        <button type="button" onClick={onDone} className="rounded border border-slate-300 px-3 py-1 text-xs">
          {t("cancel")}
        </button>
      </div>
    </form>
  );
}

/**
 * The model's example output, shown on its catalog card and page: an admin's image URL (or a path
 * of this app), or, when cleared, the picture the app renders with the simulator.
 */
function ExampleEditor({ model }: { model: AdminModelRecord }) {
  const t = useTranslations("adminModels");
  const update = useUpdateModel();
  const [editing, setEditing] = useState(false);
  const [url, setUrl] = useState(model.thumbnailUrl ?? "");
  const issues = isAdminApiError(update.error) ? update.error.issues : [];
  const save = (value: string | null) =>
    update.mutate({ modelId: model.modelId, thumbnailUrl: value }, { onSuccess: () => setEditing(false) });
  return (
    <div className="mt-1">
      {/* The app renders examples of visible models only (a hidden one is as unknown as a missing one). */}
      {model.visible || (model.thumbnailUrl && exampleImageUrl(model) === model.thumbnailUrl) ? (
        // eslint-disable-next-line @next/next/no-img-element -- the same image the catalog shows
        <img
          src={exampleImageUrl(model)}
          alt={t("exampleOf", { model: model.displayName })}
          width={64}
          height={40}
          className="h-10 w-16 rounded bg-slate-200 object-cover"
          loading="lazy"
          data-testid="admin-example"
        />
      ) : (
        <div className="h-10 w-16 rounded bg-slate-200" />
      )}
      {editing ? (
        <form
          className="mt-2 space-y-2"
          onSubmit={(e) => {
            e.preventDefault();
            save(url.trim() === "" ? null : url.trim());
          }}
        >
          <input
            aria-label={t("exampleUrl")}
            className={field}
            value={url}
            onChange={(e) => setUrl(e.target.value)}
            placeholder="https://…"
            inputMode="url"
          />
          {update.error && (
            <p className="text-xs text-red-600">
              {issues.length ? issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ") : update.error.message}
            </p>
          )}
          <div className="flex flex-wrap gap-2">
            <button
              type="submit"
              disabled={update.isPending}
              className="rounded bg-brand-600 px-3 py-1 text-xs font-medium text-white disabled:opacity-50"
            >
              {t("save")}
            </button>
            <button
              type="button"
              disabled={update.isPending}
              onClick={() => save(null)}
              className="rounded border border-slate-300 px-3 py-1 text-xs disabled:opacity-50"
            >
              {t("exampleReset")}
            </button>
            <button type="button" onClick={() => setEditing(false)} className="rounded border border-slate-300 px-3 py-1 text-xs">
              {t("cancel")}
            </button>
          </div>
        </form>
      ) : (
        <button type="button" onClick={() => setEditing(true)} className="mt-1 block text-xs text-brand-700 hover:underline">
          {t("exampleEdit")}
        </button>
      )}
    </div>
  );
}

function Row({ model, configured }: { model: AdminModelRecord; configured: ProviderConfigured }) {
  const t = useTranslations("adminModels");
  const tc = useTranslations("catalog");
  const f = useFormat();
  const [editing, setEditing] = useState(false);
  const [routing, setRouting] = useState(false);
  const update = useUpdateModel();
  const sync = useSyncModel();
  const remove = useDeleteModel();
  const routesId = `routes-${model.modelId}`;
  return (
    <Fragment>
      <tr className={`border-t border-slate-100 ${model.visible ? "" : "bg-slate-50 text-slate-600"}`} data-model-id={model.modelId}>
        <td className={`${cell} min-w-0`}>
          <p className="font-medium text-slate-900" translate="no">
            {model.displayName}
          </p>
          <ModelId id={model.modelId} className="text-xs text-slate-600" />
          <ExampleEditor model={model} />
        </td>
        <td className={cell}>
          <p>{localCategory(tc, model.category)}</p>
          <p className="text-xs text-slate-600">{model.modelLab ?? t("community")}</p>
        </td>
        <td className={`${cell} ${editing ? "w-64" : ""}`}>
          {editing ? (
            <PriceEditor model={model} onDone={() => setEditing(false)} />
          ) : (
            <button type="button" onClick={() => setEditing(true)} className="text-left hover:underline" title={t("editPrice")}>
              {model.priceRub === null
                ? t("fixed", { price: f.rubles(model.creditCost, "unitPrice") })
                : t("per", {
                    price: f.rubles(model.priceRub, "unitPrice"),
                    unit: model.priceUnit ? f.unit(model.priceUnit) : f.unit("request"),
                  })}
              {model.originalPriceRub !== null && (
                <s className="ml-2 text-xs text-slate-600">{f.rubles(model.originalPriceRub, "unitPrice")}</s>
              )}
              {model.discountPercent > 0 && (
                <span className="ml-2 rounded bg-emerald-50 px-1.5 text-xs text-emerald-700">−{model.discountPercent}%</span>
              )}
            </button>
          )}
        </td>
        <td className={cell}>
          <p className="text-sm">{model.visible ? t("visible") : t("hidden")}</p>
          <button
            type="button"
            disabled={update.isPending}
            onClick={() => update.mutate({ modelId: model.modelId, visible: !model.visible })}
            className="mt-1 rounded border border-slate-300 px-2 py-0.5 text-xs disabled:opacity-50"
          >
            {model.visible ? t("hide") : t("show")}
          </button>
          {update.error && <p className="mt-1 text-xs text-red-600">{update.error.message}</p>}
        </td>
        <td className={`${cell} text-xs text-slate-600`}>
          <WhenText text={f.dateTime(model.schemaFetchedAt, t("never"))} />
        </td>
        <td className={cell}>
          <div className="flex flex-col items-start gap-1">
            <button
              type="button"
              disabled={sync.isPending}
              onClick={() => sync.mutate(model.modelId)}
              className="whitespace-nowrap rounded border border-slate-300 px-2 py-1 text-xs disabled:opacity-50"
            >
              {sync.isPending ? t("syncing") : t("syncSchema")}
            </button>
            <button
              type="button"
              aria-expanded={routing}
              aria-controls={routing ? routesId : undefined}
              onClick={() => setRouting((v) => !v)}
              className="whitespace-nowrap rounded border border-slate-300 px-2 py-1 text-xs"
            >
              {t("routes")}
            </button>
            <button
              type="button"
              disabled={remove.isPending}
              onClick={() => window.confirm(t("deleteConfirm", { id: model.modelId })) && remove.mutate(model.modelId)}
              className="rounded border border-red-200 px-2 py-1 text-xs text-red-700 disabled:opacity-50"
            >
              {t("delete")}
            </button>
          </div>
          {(sync.error || remove.error) && <p className="mt-1 text-xs text-red-600">{(sync.error ?? remove.error)!.message}</p>}
        </td>
      </tr>
      {routing && (
        <tr id={routesId} className="border-t border-slate-100 bg-slate-50/50" data-routes-of={model.modelId}>
          <td colSpan={6} className="px-3 py-3">
            <p className="mb-2 text-xs font-semibold uppercase tracking-wider text-slate-600">{t("routesTitle")}</p>
            <RoutesEditor modelId={model.modelId} displayName={model.displayName} configured={configured} />
          </td>
        </tr>
      )}
    </Fragment>
  );
}

export function SyncCatalogButton() {
  const t = useTranslations("adminModels");
  const sync = useSyncCatalog();
  return (
    <div className="flex items-center gap-3">
      {sync.data && (
        <span className="text-sm text-slate-600">
          {t("synced", { added: sync.data.added, updated: sync.data.updated, ms: sync.data.elapsedMs })}
        </span>
      )}
      {sync.error && <span className="text-sm text-red-600">{sync.error.message}</span>}
      <button
        type="button"
        disabled={sync.isPending}
        onClick={() => sync.mutate()}
        className="rounded-md bg-brand-600 px-4 py-2 text-sm font-medium text-white disabled:opacity-50"
      >
        {sync.isPending ? t("syncing") : t("syncCatalog")}
      </button>
    </div>
  );
}

export function AdminModelsTable({
  query,
  initial,
  configured,
}: {
  query: string;
  initial: AdminModelsPage;
  configured: ProviderConfigured;
}) {
  const t = useTranslations("adminModels");
  const f = useFormat();
  const { data } = useAdminModels(query, initial);
  return (
    <div tabIndex={0} className="overflow-x-auto rounded-lg border border-slate-200 bg-white shadow-sm">
      <table className="w-full text-left text-sm">
        <thead className="bg-slate-50 text-xs uppercase tracking-wider text-slate-600">
          <tr>
            <th className={cell}>{t("colModel")}</th>
            <th className={cell}>{t("colCategory")}</th>
            <th className={cell}>{t("colPrice")}</th>
            <th className={cell}>{t("colVisibility")}</th>
            <th className={cell}>{t("colSchema")}</th>
            <th className={cell}>{t("colActions")}</th>
          </tr>
        </thead>
        <tbody>
          {data.items.map((m) => (
            <Row key={m.modelId} model={m} configured={configured} />
          ))}
        </tbody>
      </table>
      <p className="border-t border-slate-100 px-3 py-2 text-xs text-slate-600">
        {data.total === 0
          ? t("noModels")
          : t("range", { from: f.number(data.offset + 1), to: f.number(data.offset + data.items.length), total: f.number(data.total) })}
      </p>
    </div>
  );
}
