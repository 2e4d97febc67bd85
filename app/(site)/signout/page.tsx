import { getTranslations } from "next-intl/server";
import { SubmitButton } from "@/components/dashboard/submit-button";
import { signOutAction } from "../signin/actions";

export async function generateMetadata() {
  return { title: (await getTranslations("signin"))("signOutTitle") };
}

export default async function SignOutPage() {
  const t = await getTranslations("signin");
  return (
    <div className="mx-auto max-w-md px-4 py-16">
      <div className="rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
        <h1 className="text-xl font-semibold text-slate-900">{t("signOutTitle")}</h1>
        <p className="mt-2 text-sm text-slate-600">{t("signOutExplain")}</p>
        <form action={signOutAction} className="mt-4">
          <SubmitButton pendingLabel={t("signingOut")}>{t("signOutTitle")}</SubmitButton>
        </form>
      </div>
    </div>
  );
}
