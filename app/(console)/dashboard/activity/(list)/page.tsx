import { getTranslations } from "next-intl/server";
import { ACTIVITY_PAGE_SIZE, filtersFrom } from "@/components/generation/activity-filters";
import { PageHeader } from "@/components/ui/card";
import { activityQuery } from "@/lib/http/contracts/generation";
import { requireViewer } from "@/lib/auth/viewer";
import { listActivity, listInFlightRuns } from "@/lib/generation";
import { InFlightRuns } from "@/components/generation/in-flight-runs";
import { listKeys } from "@/lib/account/keys/list-keys";
import { ActivityList } from "../activity-list";

export async function generateMetadata() {
  return { title: (await getTranslations("activity"))("title") };
}

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

/**
 * The first page is read on the server through GET /me/activity's own domain function (no
 * loading flash); the island then pages and filters over the JSON API. Filters the API would
 * refuse (an unknown status) are left to the island, which shows the API's error.
 */
export default async function ActivityPage({ searchParams }: { searchParams: SearchParams }) {
  const ctx = await requireViewer();
  const filters = filtersFrom(await searchParams);
  const t = await getTranslations("activity");
  const query = activityQuery.safeParse({ ...filters, limit: ACTIVITY_PAGE_SIZE });
  const [keys, initialPage] = await Promise.all([listKeys(ctx), query.success ? listActivity(ctx, query.data) : undefined]);
  // A job is recorded when it ends: until then it is listed above, with any retry of its provider call.
  const inFlight = await listInFlightRuns(ctx);
  return (
    <>
      <PageHeader title={t("title")} description={t("description")} />
      {inFlight.length > 0 && <InFlightRuns runs={inFlight} />}
      <ActivityList
        initialFilters={filters}
        initialPage={initialPage}
        keys={keys.map((k) => ({ id: k.id, name: k.name, start: k.start }))}
      />
    </>
  );
}
