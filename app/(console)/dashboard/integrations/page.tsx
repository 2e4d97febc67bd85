import { PageHeader } from "@/components/ui/card";
import { COVER_LIMITS } from "@/lib/api/contracts/integrations";
import { requireViewer } from "@/lib/auth/viewer";
import { estimateModel } from "@/lib/catalog/estimate";
import { env } from "@/lib/env";
import { COVER_IMAGE_INPUT } from "@/lib/integrations/covers/generate-cover-image";
import { formatCredits } from "@/lib/money/credits";
import { CoversPlayground } from "./covers-playground";

export const metadata = { title: "Integrations" };

export default async function IntegrationsPage() {
  const { db } = await requireViewer();
  const { INTEGRATION_SLUG: slug, INTEGRATION_MODEL_ID: modelId } = env();
  const estimate = await estimateModel(db, modelId, { prompt: "cover", ...COVER_IMAGE_INPUT }).catch(() => null);
  return (
    <>
      <PageHeader
        title="Integrations"
        description={
          <>
            Album covers for partners: <code className="font-mono">POST /integrations/{slug}</code> generates a cover from a release,{" "}
            <code className="font-mono">POST /integrations/{slug}-edit</code> writes its names on one. Try both here with your session.
          </>
        }
      />
      <CoversPlayground
        slug={slug}
        modelId={modelId}
        costLabel={estimate ? formatCredits(estimate.estimatedCostCredits) : null}
        limits={COVER_LIMITS}
      />
    </>
  );
}
