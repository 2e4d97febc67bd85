import { Card, PageHeader } from "@/components/ui/card";

export const metadata = { title: "Dashboard" };

export default function DashboardPage() {
  return (
    <>
      <PageHeader title="Overview" description="Your balance, keys and recent generations." />
      <Card title="Getting started">
        <p className="text-sm text-slate-600">Create an API key, top up your balance, then call a model from the catalog.</p>
      </Card>
    </>
  );
}
