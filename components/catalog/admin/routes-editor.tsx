"use client";

import { useTranslations } from "next-intl";
import { useState } from "react";
import { ConfirmDialog } from "@/components/dashboard/confirm-dialog";
import { Badge } from "@/components/dashboard/ui";
import type { AdminModelRoutes } from "@/lib/admin/model-routes";
import { useFormat } from "@/lib/i18n/use-format";
import { isDecimalError } from "@/lib/pricing/decimal";
import { unitMargin } from "@/lib/pricing/margin";
import { isAdminApiError, useModelRoutes, useReplaceRoutes, type RouteDraft } from "./use-admin-models";

// Not imported from the schema module: that would ship drizzle's table builder to the browser.
const providers = ["fal", "replicate", "local"] as const;
export type ProviderConfigured = Record<(typeof providers)[number], boolean>;

const field = "w-full rounded border border-slate-300 px-2 py-1 text-sm";
const cell = "px-2 py-1.5 align-top";
const small = "rounded border border-slate-300 px-2 py-0.5 text-xs disabled:opacity-40";

/** A row being edited: the input map as the admin types it ("prompt=text, image_url=image"). */
type Draft = { key: number; provider: string; endpointId: string; inputMap: string; costRub: string; enabled: boolean };

const mapText = (map: Record<string, string>) =>
  Object.entries(map)
    .map(([ours, theirs]) => `${ours}=${theirs}`)
    .join(", ");

/** "a=b, c=d" → { a: "b", c: "d" }; null when a pair has no "=" (the server checks the names). */
function parseMap(text: string): Record<string, string> | null {
  const pairs = text
    .split(/[,\n]/)
    .map((p) => p.trim())
    .filter(Boolean);
  const entries = pairs.map((p) => p.split("=").map((s) => s.trim()));
  if (entries.some((e) => e.length !== 2)) return null;
  return Object.fromEntries(entries);
}

function marginOf(priceRub: number, cost: string) {
  if (cost.trim() === "") return { marginRub: null, marginPercent: null };
  try {
    return unitMargin(String(priceRub), cost.trim());
  } catch (err) {
    if (isDecimalError(err)) return { marginRub: null, marginPercent: null };
    throw err;
  }
}

/**
 * A model's routes, in the order new jobs try them: edited here as a whole (reorder, add, remove,
 * switch off, change fields) and saved at once through PUT /admin/models/routes after a confirmation.
 */
export function RoutesEditor({
  modelId,
  displayName,
  configured,
}: {
  modelId: string;
  displayName: string;
  configured: ProviderConfigured;
}) {
  const t = useTranslations("adminModels");
  const routes = useModelRoutes(modelId);
  if (routes.error) return <p className="text-xs text-red-600">{routes.error.message}</p>;
  if (!routes.data) return <p className="text-xs text-slate-600">{t("routesLoading")}</p>;
  // Re-keyed on every saved answer, so the draft starts again from what is stored.
  return <Editor key={JSON.stringify(routes.data.routes)} saved={routes.data} displayName={displayName} configured={configured} />;
}

function Editor({ saved, displayName, configured }: { saved: AdminModelRoutes; displayName: string; configured: ProviderConfigured }) {
  const t = useTranslations("adminModels");
  const f = useFormat();
  const replace = useReplaceRoutes(saved.modelId);
  const [next, setNext] = useState(saved.routes.length);
  const [rows, setRows] = useState<Draft[]>(() =>
    saved.routes.map((r, key) => ({
      key,
      provider: r.provider,
      endpointId: r.endpointId,
      inputMap: mapText(r.inputMap),
      costRub: r.costRub === null ? "" : String(r.costRub),
      enabled: r.enabled,
    })),
  );
  const [asking, setAsking] = useState(false);
  const [formError, setFormError] = useState<string | null>(null);
  const unused = providers.filter((p) => !rows.some((r) => r.provider === p));
  const set = (key: number, patch: Partial<Draft>) => setRows((rs) => rs.map((r) => (r.key === key ? { ...r, ...patch } : r)));
  const move = (i: number, by: -1 | 1) =>
    setRows((rs) => {
      const out = [...rs];
      [out[i], out[i + by]] = [out[i + by]!, out[i]!];
      return out;
    });
  const add = () => {
    setRows((rs) => [...rs, { key: next, provider: unused[0]!, endpointId: "", inputMap: "", costRub: "", enabled: true }]);
    setNext((n) => n + 1);
  };
  const body = (): RouteDraft[] | null => {
    const out: RouteDraft[] = [];
    for (const r of rows) {
      const inputMap = parseMap(r.inputMap);
      if (!inputMap) return null;
      out.push({ provider: r.provider, endpointId: r.endpointId, inputMap, costRub: r.costRub.trim() || null, enabled: r.enabled });
    }
    return out;
  };
  const issues = isAdminApiError(replace.error) ? replace.error.issues : [];
  const unit = f.unit(saved.priceUnit);
  return (
    <div className="space-y-2" data-testid="routes-editor">
      <p className="text-xs text-slate-600">{t("routesNote", { price: f.rubles(saved.priceRub, "unitPrice"), unit })}</p>
      {rows.length === 0 ? (
        <p className="text-sm text-slate-700">{t("routesNone")}</p>
      ) : (
        <div className="overflow-x-auto">
          <table className="w-full text-left text-sm">
            <thead className="text-xs uppercase tracking-wider text-slate-600">
              <tr>
                <th className={cell}>#</th>
                <th className={cell}>{t("routeProvider")}</th>
                <th className={cell}>{t("routeEndpoint")}</th>
                <th className={cell}>{t("routeInputMap")}</th>
                <th className={`${cell} min-w-28`}>{t("routeCost", { unit })}</th>
                <th className={cell}>{t("routeMargin")}</th>
                <th className={cell}>{t("routeEnabled")}</th>
                <th className={cell}>
                  <span className="sr-only">{t("colActions")}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r, i) => {
                const m = marginOf(saved.priceRub, r.costRub);
                const name = t("routeOf", { n: i + 1 });
                return (
                  <tr key={r.key} className="border-t border-slate-100" data-testid="route-row" data-provider={r.provider}>
                    <td className={`${cell} tabular-nums text-slate-600`}>{i + 1}</td>
                    <td className={`${cell} w-32`}>
                      <select
                        aria-label={`${name}: ${t("routeProvider")}`}
                        className={field}
                        value={r.provider}
                        onChange={(e) => set(r.key, { provider: e.target.value })}
                      >
                        {providers
                          .filter((p) => p === r.provider || unused.includes(p))
                          .map((p) => (
                            <option key={p} value={p}>
                              {p}
                            </option>
                          ))}
                      </select>
                      {/* Whose credentials this deployment holds: a route without them is never tried. */}
                      <div className="mt-1 whitespace-nowrap">
                        {configured[r.provider as keyof ProviderConfigured] ? (
                          <Badge tone="green">{t("routeConfigured")}</Badge>
                        ) : (
                          <Badge tone="amber">{t("routeNotConfigured")}</Badge>
                        )}
                      </div>
                    </td>
                    <td className={`${cell} min-w-48`}>
                      <input
                        aria-label={`${name}: ${t("routeEndpoint")}`}
                        className={field}
                        value={r.endpointId}
                        onChange={(e) => set(r.key, { endpointId: e.target.value })}
                        translate="no"
                      />
                    </td>
                    <td className={`${cell} min-w-40`}>
                      <input
                        aria-label={`${name}: ${t("routeInputMap")}`}
                        className={field}
                        value={r.inputMap}
                        onChange={(e) => set(r.key, { inputMap: e.target.value })}
                        placeholder="prompt=text"
                        translate="no"
                      />
                    </td>
                    <td className={`${cell} min-w-28`}>
                      <input
                        aria-label={`${name}: ${t("routeCost", { unit })}`}
                        className={field}
                        value={r.costRub}
                        onChange={(e) => set(r.key, { costRub: e.target.value })}
                        placeholder={t("routeCostUnknown")}
                        inputMode="decimal"
                      />
                    </td>
                    <td className={`${cell} whitespace-nowrap tabular-nums`} data-testid="route-margin">
                      {m.marginRub === null ? (
                        "—"
                      ) : (
                        <span className={m.marginRub < 0 ? "text-red-700" : ""}>
                          {f.rubles(m.marginRub, "unitPrice")}
                          {m.marginPercent !== null && <span className="ml-1 text-xs text-slate-600">({f.number(m.marginPercent)} %)</span>}
                        </span>
                      )}
                    </td>
                    <td className={cell}>
                      <input
                        type="checkbox"
                        aria-label={`${name}: ${t("routeEnabled")}`}
                        checked={r.enabled}
                        onChange={(e) => set(r.key, { enabled: e.target.checked })}
                      />
                    </td>
                    <td className={`${cell} whitespace-nowrap`}>
                      <div className="flex gap-1">
                        <button
                          type="button"
                          className={small}
                          disabled={i === 0}
                          onClick={() => move(i, -1)}
                          aria-label={`${name}: ${t("routeUp")}`}
                        >
                          ↑
                        </button>
                        <button
                          type="button"
                          className={small}
                          disabled={i === rows.length - 1}
                          onClick={() => move(i, 1)}
                          aria-label={`${name}: ${t("routeDown")}`}
                        >
                          ↓
                        </button>
                        <button
                          type="button"
                          className={`${small} border-red-200 text-red-700`}
                          onClick={() => setRows((rs) => rs.filter((x) => x.key !== r.key))}
                          aria-label={`${name}: ${t("routeRemove")}`}
                        >
                          ✕
                        </button>
                      </div>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      {(formError || replace.error) && (
        <p className="text-xs text-red-600" role="alert">
          {formError ?? (issues.length ? issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ") : replace.error!.message)}
        </p>
      )}
      <div className="flex flex-wrap gap-2">
        <button type="button" className={small} disabled={unused.length === 0} onClick={add}>
          {t("routeAdd")}
        </button>
        <button
          type="button"
          className="rounded bg-brand-600 px-3 py-1 text-xs font-medium text-white disabled:opacity-50"
          disabled={replace.isPending}
          onClick={() => {
            setFormError(body() === null ? t("routeInputMapFormat") : null);
            if (body() !== null) setAsking(true);
          }}
        >
          {t("routesSave")}
        </button>
      </div>
      <ConfirmDialog
        open={asking}
        title={t("routesConfirmTitle", { model: displayName })}
        confirmLabel={t("routesSave")}
        variant="primary"
        pending={replace.isPending}
        onConfirm={() => {
          const routes = body();
          if (routes) replace.mutate(routes, { onSettled: () => setAsking(false) });
        }}
        onClose={() => setAsking(false)}
      >
        <p>
          {rows.length === 0
            ? t("routesConfirmNone")
            : t("routesConfirmBody", {
                order:
                  rows
                    .filter((r) => r.enabled)
                    .map((r) => r.provider)
                    .join(" → ") || "—",
              })}
        </p>
      </ConfirmDialog>
    </div>
  );
}
