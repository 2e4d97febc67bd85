"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { brand } from "@/lib/core/brand";
import type { AdminModelRoutes } from "@/lib/admin/model-routes";
import type { AdminModelRecord } from "@/lib/catalog/admin-record";

export type AdminModelsPage = { items: AdminModelRecord[]; total: number; limit: number; offset: number };

export class AdminApiError extends Error {
  constructor(
    message: string,
    readonly issues: { path: string[]; message: string }[] = [],
  ) {
    super(message);
  }
}
const adminApiErrors = brand<AdminApiError>("admin-api-error");
adminApiErrors.mark(AdminApiError);
export const isAdminApiError = adminApiErrors.is;

/** The admin JSON API with the dashboard session cookie (same origin). */
async function adminFetch<T>(path: string, init?: { method: string; body?: unknown }): Promise<T> {
  const res = await fetch(path, {
    method: init?.method ?? "GET",
    headers: init?.body !== undefined ? { "content-type": "application/json" } : undefined,
    body: init?.body !== undefined ? JSON.stringify(init.body) : undefined,
    credentials: "same-origin",
  });
  const body = await res.json().catch(() => ({}));
  if (!res.ok) throw new AdminApiError(body.message ?? `HTTP ${res.status}`, body.issues);
  return body as T;
}

export const adminModelsKey = (query: string) => ["admin-models", query] as const;

export function useAdminModels(query: string, initialData: AdminModelsPage) {
  return useQuery({ queryKey: adminModelsKey(query), queryFn: () => adminFetch<AdminModelsPage>(`/admin/models?${query}`), initialData });
}

function useAdminMutation<V, R>(fn: (v: V) => Promise<R>) {
  const client = useQueryClient();
  return useMutation({ mutationFn: fn, onSuccess: () => client.invalidateQueries({ queryKey: ["admin-models"] }) });
}

export type ModelPatch = {
  modelId: string;
  visible?: boolean;
  priceRub?: string | null;
  originalPriceRub?: string;
  priceUnit?: string | null;
  discountPercent?: string;
  thumbnailUrl?: string | null;
};

export const useUpdateModel = () =>
  useAdminMutation((patch: ModelPatch) => adminFetch<{ model: AdminModelRecord }>("/admin/models", { method: "POST", body: patch }));
export const useSyncModel = () =>
  useAdminMutation((modelId: string) =>
    adminFetch<{ model: AdminModelRecord }>("/admin/models/sync", { method: "POST", body: { modelId } }),
  );
export const useSyncCatalog = () =>
  useAdminMutation(() =>
    adminFetch<{ before: number; after: number; added: number; updated: number; elapsedMs: number }>("/admin/models/sync-catalog", {
      method: "POST",
    }),
  );
export const useDeleteModel = () =>
  useAdminMutation((modelId: string) => adminFetch<{ ok: true }>("/admin/models", { method: "DELETE", body: { modelId } }));

/** A model's routes with their margins (GET /admin/models/routes), fetched when its editor opens. */
export const modelRoutesKey = (modelId: string) => ["admin-model-routes", modelId] as const;

export function useModelRoutes(modelId: string) {
  return useQuery({
    queryKey: modelRoutesKey(modelId),
    queryFn: () => adminFetch<AdminModelRoutes>(`/admin/models/routes?modelId=${encodeURIComponent(modelId)}`),
  });
}

export type RouteDraft = {
  provider: string;
  endpointId: string;
  inputMap: Record<string, string>;
  costRub: string | null;
  enabled: boolean;
};

export function useReplaceRoutes(modelId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (routes: RouteDraft[]) =>
      adminFetch<AdminModelRoutes>("/admin/models/routes", { method: "PUT", body: { modelId, routes } }),
    onSuccess: (saved) => client.setQueryData(modelRoutesKey(modelId), saved),
  });
}
