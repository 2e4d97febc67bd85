import { getTranslations } from "next-intl/server";
import { PageHeader } from "@/components/ui/card";
import { requireViewer } from "@/lib/auth/viewer";
import { getProfile } from "@/lib/account/profile";
import { ProfileForm } from "./profile-form";

export async function generateMetadata() {
  return { title: (await getTranslations("profile"))("title") };
}

export default async function ProfilePage() {
  const ctx = await requireViewer();
  const [profile, t] = await Promise.all([getProfile(ctx), getTranslations("profile")]);
  return (
    <>
      <PageHeader title={t("title")} description={t("signedInAs", { who: profile.email ?? profile.name ?? profile.id })} />
      <ProfileForm profile={profile} />
    </>
  );
}
