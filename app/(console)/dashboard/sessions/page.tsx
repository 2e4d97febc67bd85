import { PageHeader } from "@/components/ui/card";
import { requireViewer } from "@/lib/auth/viewer";
import { listSessions } from "@/lib/me/sessions";
import { SessionsList } from "./sessions-list";

export const metadata = { title: "Sessions" };

export default async function SessionsPage() {
  const { db, principal } = await requireViewer();
  const sessions = await listSessions(db, principal.userId, principal.sessionId);
  return (
    <>
      <PageHeader title="Sessions" description="Browsers signed in to your account. Revoke any you don’t recognise." />
      <SessionsList initialSessions={sessions} />
    </>
  );
}
