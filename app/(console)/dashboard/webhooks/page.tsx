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
        description={
          <>
            Completion callbacks (<code className="font-mono">webhook</code> on /queue, <code className="font-mono">webhook_url</code> on
            /api/v1/generate) are signed with this secret.
          </>
        }
      />
      <WebhookSecretCard />
    </>
  );
}
