import { getTranslations } from "next-intl/server";
import { PageHeader } from "@/components/ui/card";
import { COVER_LIMITS } from "@/lib/integrations/covers/schemas";
import { requireViewer } from "@/lib/auth/viewer";
import { estimateModel } from "@/lib/catalog/estimate";
import { env } from "@/lib/core/env";
import { COVER_IMAGE_INPUT } from "@/lib/integrations/covers/generate-cover-image";
import { getFormat } from "@/lib/i18n/server";
import { CoversPlayground } from "./covers-playground";

export async function generateMetadata() {
  return { title: (await getTranslations("integrations"))("title") };
}

export default async function IntegrationsPage() {
  const { db } = await requireViewer();
  const { INTEGRATION_SLUG: slug, INTEGRATION_MODEL_ID: modelId } = env();
  const [t, f] = await Promise.all([getTranslations("integrations"), getFormat()]);
  const estimate = await estimateModel(db, modelId, { prompt: "cover", ...COVER_IMAGE_INPUT }).catch(() => null);
  return (
    <>
      <PageHeader
        title={t("title")}
        description={t.rich("description", { slug, code: (chunks) => <code className="font-mono">{chunks}</code> })}
      />
      <CoversPlayground
        slug={slug}
        modelId={modelId}
        costLabel={estimate ? f.money(estimate.estimatedCostCredits, "charge") : null}
        limits={COVER_LIMITS}
      />
    </>
  );
}
