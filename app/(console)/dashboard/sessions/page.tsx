import { getTranslations } from "next-intl/server";
import { PageHeader } from "@/components/ui/card";
import { requireViewer } from "@/lib/auth/viewer";
import { listSessions } from "@/lib/account/sessions";
import { SessionsList } from "./sessions-list";

export async function generateMetadata() {
  return { title: (await getTranslations("sessions"))("title") };
}

export default async function SessionsPage() {
  const ctx = await requireViewer();
  const [sessions, t] = await Promise.all([listSessions(ctx), getTranslations("sessions")]);
  return (
    <>
      <PageHeader title={t("title")} description={t("description")} />
      <SessionsList initialSessions={sessions} />
    </>
  );
}
