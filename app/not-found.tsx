import { getTranslations } from "next-intl/server";
import { ButtonLink } from "@/components/ui/button";

export default async function NotFound() {
  const t = await getTranslations("notFound");
  return (
    <main className="flex min-h-screen flex-col items-center justify-center gap-4 px-4 text-center">
      <p className="text-sm font-semibold text-brand-600">404</p>
      <h1 className="text-3xl font-bold tracking-tight text-slate-900">{t("title")}</h1>
      <p className="max-w-md text-slate-600">{t("body")}</p>
      <div className="flex gap-3">
        <ButtonLink href="/">{t("home")}</ButtonLink>
        <ButtonLink href="/catalog" variant="secondary">
          {t("models")}
        </ButtonLink>
      </div>
    </main>
  );
}
