"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { ConfirmDialog } from "@/components/dashboard/confirm-dialog";
import { Table } from "@/components/dashboard/ui";
import { Card } from "@/components/ui/card";
import type { ApiKeyView } from "@/lib/account/keys/key-view";
import { apiFetch } from "@/lib/account/api-fetch";
import { CreateKeyForm, NewKeyPanel } from "./create-key-form";
import { KeyRow } from "./key-row";
import { keysQueryKey, type CreatedKey as Created } from "./keys-query";

export function KeysManager({ initialKeys }: { initialKeys: ApiKeyView[] }) {
  const t = useTranslations("keys");
  const queryClient = useQueryClient();
  const [created, setCreated] = useState<Created | null>(null);
  const [deleting, setDeleting] = useState<ApiKeyView | null>(null);
  const { data: keys } = useQuery({
    queryKey: keysQueryKey,
    queryFn: () => apiFetch<{ keys: ApiKeyView[] }>("/me/keys").then((r) => r.keys),
    initialData: initialKeys,
  });
  const remove = useMutation({
    mutationFn: (id: string) => apiFetch(`/me/keys/${id}`, { method: "DELETE" }),
    onSuccess: () => {
      setDeleting(null);
      void queryClient.invalidateQueries({ queryKey: keysQueryKey });
    },
  });
  return (
    <div className="space-y-6">
      <Card title={t("create")}>
        <CreateKeyForm onCreated={setCreated} />
      </Card>
      {created && <NewKeyPanel created={created} onDone={() => setCreated(null)} />}
      <Card title={t("yours", { count: keys.length })}>
        {keys.length === 0 ? (
          <p className="text-sm text-slate-600">{t("none")}</p>
        ) : (
          <Table stack head={[t("colKey"), t("colStatus"), t("colCreated"), t("colUsage"), t("colCap"), ""]}>
            {keys.map((k) => (
              <KeyRow key={k.id} apiKey={k} onDelete={setDeleting} />
            ))}
          </Table>
        )}
      </Card>
      <ConfirmDialog
        open={deleting !== null}
        title={t("deleteTitle", { name: deleting?.name ?? "" })}
        confirmLabel={t("deleteConfirm")}
        pending={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting.id)}
        onClose={() => {
          setDeleting(null);
          remove.reset();
        }}
      >
        <p>{t("deleteBody")}</p>
        {remove.error && <p className="mt-2 text-red-700">{remove.error.message}</p>}
      </ConfirmDialog>
    </div>
  );
}
