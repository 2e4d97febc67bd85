import { filtersFrom } from "@/components/generation/activity-filters";
import { PageHeader } from "@/components/ui/card";
import { requireViewer } from "@/lib/auth/viewer";
import { listKeys } from "@/lib/keys/list-keys";
import { ActivityList } from "./activity-list";

export const metadata = { title: "Activity" };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export default async function ActivityPage({ searchParams }: { searchParams: SearchParams }) {
  const { db, principal } = await requireViewer();
  const [filters, keys] = await Promise.all([searchParams.then(filtersFrom), listKeys(db, principal.userId)]);
  return (
    <>
      <PageHeader title="Activity" description="Every generation and upload billed to your account, newest first. Open one for its input, output, files and cost." />
      <ActivityList initialFilters={filters} keys={keys.map((k) => ({ id: k.id, name: k.name, start: k.start }))} />
    </>
  );
}
