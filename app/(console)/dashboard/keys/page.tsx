import { getTranslations } from "next-intl/server";
import { PageHeader } from "@/components/ui/card";
import { requireViewer } from "@/lib/auth/viewer";
import { listKeys } from "@/lib/account/keys/list-keys";
import { KeysManager } from "./keys-manager";

export async function generateMetadata() {
  return { title: (await getTranslations("keys"))("title") };
}

export default async function KeysPage() {
  const ctx = await requireViewer();
  const [keys, t] = await Promise.all([listKeys(ctx), getTranslations("keys")]);
  return (
    <>
      <PageHeader
        title={t("title")}
        description={t.rich("description", {
          header: "Authorization: Bearer <key>",
          code: (chunks) => <code className="font-mono">{chunks}</code>,
        })}
      />
      <KeysManager initialKeys={keys} />
    </>
  );
}
