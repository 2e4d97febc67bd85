"use client";

import { useTranslations } from "next-intl";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { ConfirmDialog } from "@/components/dashboard/confirm-dialog";
import { CopyButton } from "@/components/dashboard/copy-button";
import { Alert } from "@/components/dashboard/ui";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { apiFetch } from "@/lib/account/api-fetch";

const secretQueryKey = ["me", "webhook-secret"] as const;

/** The secret is fetched only when revealed, and dropped from the cache when hidden. */
export function WebhookSecretCard() {
  const t = useTranslations("webhooks");
  const queryClient = useQueryClient();
  const [revealed, setRevealed] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const secret = useQuery({
    queryKey: secretQueryKey,
    queryFn: () => apiFetch<{ secret: string }>("/me/webhook-secret").then((r) => r.secret),
    enabled: revealed,
    staleTime: Infinity,
    gcTime: 0,
  });
  const rotate = useMutation({
    mutationFn: () => apiFetch<{ secret: string }>("/me/webhook-secret/rotate", { method: "POST" }),
    onSuccess: (r) => {
      queryClient.setQueryData(secretQueryKey, r.secret);
      setRevealed(true);
      setConfirming(false);
    },
  });
  return (
    <div className="space-y-6">
      <Card title={t("secret")}>
        <div className="space-y-4">
          <div className="flex flex-wrap items-center gap-2">
            <code className="min-w-0 flex-1 break-all rounded bg-slate-50 px-3 py-2 font-mono text-sm" data-testid="webhook-secret">
              {revealed ? (secret.data ?? t("loading")) : "whsec_••••••••••••••••••••••••"}
            </code>
            {revealed && secret.data && <CopyButton value={secret.data} />}
            <Button
              variant="secondary"
              onClick={() => {
                if (revealed) queryClient.removeQueries({ queryKey: secretQueryKey });
                setRevealed(!revealed);
              }}
            >
              {revealed ? t("hide") : t("reveal")}
            </Button>
            <Button variant="danger" onClick={() => setConfirming(true)}>
              {t("rotate")}
            </Button>
          </div>
          {secret.error && <Alert>{secret.error.message}</Alert>}
        </div>
      </Card>
      <Card title={t("verifying")}>
        <div className="space-y-2 text-sm text-slate-600">
          <p>
            {t.rich("howTo", {
              link: (chunks) => (
                <a className="underline" href="https://www.standardwebhooks.com/">
                  {chunks}
                </a>
              ),
              code: (chunks) => <code>{chunks}</code>,
            })}
          </p>
          <pre
            tabIndex={0}
            className="overflow-x-auto rounded bg-slate-900 p-3 text-xs text-slate-100"
          >{`import { Webhook } from "standardwebhooks";
const payload = new Webhook(process.env.WEBHOOK_SECRET).verify(rawBody, headers);`}</pre>
          <p>{t.rich("dedupe", { code: (chunks) => <code>{chunks}</code> })}</p>
        </div>
      </Card>
      <ConfirmDialog
        open={confirming}
        title={t("rotateTitle")}
        confirmLabel={t("rotate")}
        pending={rotate.isPending}
        onConfirm={() => rotate.mutate()}
        onClose={() => setConfirming(false)}
      >
        <p>{t("rotateBody")}</p>
        {rotate.error && <p className="mt-2 text-red-700">{rotate.error.message}</p>}
      </ConfirmDialog>
    </div>
  );
}
