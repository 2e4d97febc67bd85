import { PageHeader } from "@/components/ui/card";
import { requireViewer } from "@/lib/auth/viewer";
import { listKeys } from "@/lib/keys/list-keys";
import { KeysManager } from "./keys-manager";

export const metadata = { title: "API keys" };

export default async function KeysPage() {
  const { db, principal } = await requireViewer();
  const keys = await listKeys(db, principal.userId);
  return (
    <>
      <PageHeader
        title="API keys"
        description={
          <>
            Keys authenticate your scripts and agents: send <code className="font-mono">Authorization: Bearer &lt;key&gt;</code>. Live keys
            spend your balance; test keys run on the sandbox.
          </>
        }
      />
      <KeysManager initialKeys={keys} />
    </>
  );
}
