import { PageLoading } from "@/components/ui/page-states";

// A leaf of its own (a route group where the folder has detail pages): a detail page that calls
// notFound() must not be streamed behind this fallback, or it would answer 200 instead of 404.
export default function Loading() {
  return <PageLoading />;
}
