import { PageHeader } from "@/components/ui/card";

export const metadata = { title: "Models" };

// Placeholder until the catalog issue lands (search, filters, model pages).
export default function CatalogPage() {
  return (
    <div className="mx-auto max-w-6xl px-4 py-10">
      <PageHeader title="Models" description="The public model catalog is being assembled." />
    </div>
  );
}
