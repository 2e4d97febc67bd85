import { getTranslations } from "next-intl/server";
import { PageHeader } from "@/components/ui/card";
import { requireViewer } from "@/lib/auth/viewer";
import { WebhookSecretCard } from "./webhook-secret-card";

export async function generateMetadata() {
  return { title: (await getTranslations("webhooks"))("title") };
}

export default async function WebhooksPage() {
  await requireViewer();
  const t = await getTranslations("webhooks");
  return (
    <>
      <PageHeader
        title={t("title")}
        description={t.rich("description", { code: (chunks) => <code className="font-mono">{chunks}</code> })}
      />
      <WebhookSecretCard />
    </>
  );
}
