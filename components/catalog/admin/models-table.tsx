"use client";

import { useState } from "react";
import type { PriceUnit } from "@/db/schema/models";
import { formatPriceRub } from "@/lib/money/credits";
import type { AdminModelRecord } from "@/lib/catalog/admin-record";
import { type AdminModelsPage, isAdminApiError, useAdminModels, useDeleteModel, useSyncCatalog, useSyncModel, useUpdateModel } from "./use-admin-models";

// Not imported from the schema module: that would ship drizzle's table builder to the browser.
const priceUnits = ["image", "megapixel", "second", "request", "1k_chars"] as const satisfies readonly PriceUnit[];
const cell = "px-3 py-2 align-top";
const field = "w-full rounded border border-slate-300 px-2 py-1 text-sm";

function PriceEditor({ model, onDone }: { model: AdminModelRecord; onDone: () => void }) {
  const update = useUpdateModel();
  const [price, setPrice] = useState(model.priceRub === null ? "" : String(model.priceRub));
  const [unit, setUnit] = useState(model.priceUnit ?? "");
  const [discount, setDiscount] = useState(String(model.discountPercent));
  const issues = isAdminApiError(update.error) ? update.error.issues : [];
  return (
    <form
      className="space-y-2"
      onSubmit={(e) => {
        e.preventDefault();
        update.mutate(
          { modelId: model.modelId, priceRub: price.trim() === "" ? null : price.trim(), priceUnit: unit || null, discountPercent: discount.trim() || "0" },
          { onSuccess: onDone },
        );
      }}
    >
      <div className="flex gap-2">
        <input aria-label="Price, ₽" className={field} value={price} onChange={(e) => setPrice(e.target.value)} placeholder="0.00035" inputMode="decimal" />
        <select aria-label="Unit" className={field} value={unit} onChange={(e) => setUnit(e.target.value)}>
          <option value="">per request (creditCost)</option>
          {priceUnits.map((u) => (
            <option key={u} value={u}>
              {u}
            </option>
          ))}
        </select>
        <input aria-label="Discount, %" className={`${field} w-20`} value={discount} onChange={(e) => setDiscount(e.target.value)} inputMode="decimal" />
      </div>
      {update.error && <p className="text-xs text-red-600">{issues.length ? issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ") : update.error.message}</p>}
      <div className="flex gap-2">
        <button type="submit" disabled={update.isPending} className="rounded bg-brand-600 px-3 py-1 text-xs font-medium text-white disabled:opacity-50">
          Save
        </button>
        <button type="button" onClick={onDone} className="rounded border border-slate-300 px-3 py-1 text-xs">
          Cancel
        </button>
      </div>
    </form>
  );
}

function Row({ model }: { model: AdminModelRecord }) {
  const [editing, setEditing] = useState(false);
  const update = useUpdateModel();
  const sync = useSyncModel();
  const remove = useDeleteModel();
  return (
    <tr className={`border-t border-slate-100 ${model.visible ? "" : "bg-slate-50 text-slate-500"}`} data-model-id={model.modelId}>
      <td className={cell}>
        <p className="font-medium text-slate-900">{model.displayName}</p>
        <p className="font-mono text-xs text-slate-500">{model.modelId}</p>
      </td>
      <td className={cell}>
        <p>{model.category}</p>
        <p className="text-xs text-slate-500">{model.modelLab ?? "Community"}</p>
      </td>
      <td className={`${cell} min-w-72`}>
        {editing ? (
          <PriceEditor model={model} onDone={() => setEditing(false)} />
        ) : (
          <button type="button" onClick={() => setEditing(true)} className="text-left hover:underline" title="Edit price and discount">
            {model.priceRub === null ? `${model.creditCost} ₽ per request (fixed)` : `${formatPriceRub(String(model.priceRub))} per ${model.priceUnit ?? "request"}`}
            {model.discountPercent > 0 && <span className="ml-2 rounded bg-emerald-50 px-1.5 text-xs text-emerald-700">−{model.discountPercent}%</span>}
          </button>
        )}
      </td>
      <td className={cell}>
        <p className="text-sm">{model.visible ? "Visible" : "Hidden"}</p>
        <button
          type="button"
          disabled={update.isPending}
          onClick={() => update.mutate({ modelId: model.modelId, visible: !model.visible })}
          className="mt-1 rounded border border-slate-300 px-2 py-0.5 text-xs disabled:opacity-50"
        >
          {model.visible ? "Hide" : "Show"}
        </button>
        {update.error && <p className="mt-1 text-xs text-red-600">{update.error.message}</p>}
      </td>
      <td className={`${cell} text-xs text-slate-500`}>{model.schemaFetchedAt ? `${model.schemaFetchedAt.slice(0, 16).replace("T", " ")} UTC` : "never"}</td>
      <td className={`${cell} whitespace-nowrap`}>
        <button type="button" disabled={sync.isPending} onClick={() => sync.mutate(model.modelId)} className="mr-2 rounded border border-slate-300 px-2 py-1 text-xs disabled:opacity-50">
          {sync.isPending ? "Syncing…" : "Sync schema"}
        </button>
        <button
          type="button"
          disabled={remove.isPending}
          onClick={() => window.confirm(`Delete ${model.modelId}? It will not come back at restart or catalog sync.`) && remove.mutate(model.modelId)}
          className="rounded border border-red-200 px-2 py-1 text-xs text-red-700 disabled:opacity-50"
        >
          Delete
        </button>
        {(sync.error || remove.error) && <p className="mt-1 text-xs text-red-600">{(sync.error ?? remove.error)!.message}</p>}
      </td>
    </tr>
  );
}

export function SyncCatalogButton() {
  const sync = useSyncCatalog();
  return (
    <div className="flex items-center gap-3">
      {sync.data && (
        <span className="text-sm text-slate-600">
          {sync.data.added} added, {sync.data.updated} schemas refreshed in {sync.data.elapsedMs} ms
        </span>
      )}
      {sync.error && <span className="text-sm text-red-600">{sync.error.message}</span>}
      <button type="button" disabled={sync.isPending} onClick={() => sync.mutate()} className="rounded-md bg-brand-600 px-4 py-2 text-sm font-medium text-white disabled:opacity-50">
        {sync.isPending ? "Syncing…" : "Sync catalog"}
      </button>
    </div>
  );
}

export function AdminModelsTable({ query, initial }: { query: string; initial: AdminModelsPage }) {
  const { data } = useAdminModels(query, initial);
  return (
    <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white shadow-sm">
      <table className="w-full text-left text-sm">
        <thead className="bg-slate-50 text-xs uppercase tracking-wider text-slate-500">
          <tr>
            <th className={cell}>Model</th>
            <th className={cell}>Category</th>
            <th className={cell}>Price</th>
            <th className={cell}>Visibility</th>
            <th className={cell}>Schema fetched</th>
            <th className={cell}>Actions</th>
          </tr>
        </thead>
        <tbody>
          {data.items.map((m) => (
            <Row key={m.modelId} model={m} />
          ))}
        </tbody>
      </table>
      <p className="border-t border-slate-100 px-3 py-2 text-xs text-slate-500">
        {data.total === 0 ? "No models" : `${data.offset + 1}–${data.offset + data.items.length} of ${data.total}`}
      </p>
    </div>
  );
}
