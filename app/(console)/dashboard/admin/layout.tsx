import { getTranslations } from "next-intl/server";
import type { ReactNode } from "react";
import { Card, PageHeader } from "@/components/ui/card";
import { requireViewer } from "@/lib/auth/viewer";

/** The admin area's gate: an admin's session (the API enforces the same for /admin/*). */
export default async function AdminLayout({ children }: { children: ReactNode }) {
  const { principal } = await requireViewer();
  if (principal.role !== "admin") {
    const t = await getTranslations("admin");
    return (
      <>
        <PageHeader title={t("areaTitle")} />
        <Card>
          <p className="text-sm text-slate-600">{t("needsAdmin")}</p>
        </Card>
      </>
    );
  }
  return children;
}
