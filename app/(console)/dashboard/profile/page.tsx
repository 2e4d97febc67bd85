import { PageHeader } from "@/components/ui/card";
import { requireViewer } from "@/lib/auth/viewer";
import { getProfile } from "@/lib/me/profile";
import { ProfileForm } from "./profile-form";

export const metadata = { title: "Profile" };

export default async function ProfilePage() {
  const { db, principal } = await requireViewer();
  const profile = await getProfile(db, principal.userId);
  return (
    <>
      <PageHeader title="Profile" description={`Signed in as ${profile.email ?? profile.name ?? profile.id}.`} />
      <ProfileForm profile={profile} />
    </>
  );
}
