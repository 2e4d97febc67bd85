import { SubmitButton } from "@/components/dashboard/submit-button";
import { signOutAction } from "../signin/actions";

export const metadata = { title: "Sign out" };

export default function SignOutPage() {
  return (
    <div className="mx-auto max-w-md px-4 py-16">
      <div className="rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
        <h1 className="text-xl font-semibold text-slate-900">Sign out</h1>
        <p className="mt-2 text-sm text-slate-600">This ends your session in this browser. API keys keep working.</p>
        <form action={signOutAction} className="mt-4">
          <SubmitButton pendingLabel="Signing out…">Sign out</SubmitButton>
        </form>
      </div>
    </div>
  );
}
