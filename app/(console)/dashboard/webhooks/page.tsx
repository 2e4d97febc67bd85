import { PageHeader } from "@/components/ui/card";
import { requireViewer } from "@/lib/auth/viewer";
import { WebhookSecretCard } from "./webhook-secret-card";

export const metadata = { title: "Webhooks" };

export default async function WebhooksPage() {
  await requireViewer();
  return (
    <>
      <PageHeader
        title="Webhooks"
        description="Completion callbacks (`webhook` on /queue, `webhook_url` on /api/v1/generate) are signed with this secret."
      />
      <WebhookSecretCard />
    </>
  );
}
