import { PageHeader } from "@/components/ui/card";

export const metadata = { title: "Admin" };

export default function AdminHomePage() {
  return <PageHeader title="Admin" description="Users, models, money and statistics." />;
}
