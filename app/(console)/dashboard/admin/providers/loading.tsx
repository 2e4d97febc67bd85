import { PageLoading } from "@/components/ui/page-states";

export default function Loading() {
  return <PageLoading />;
}
