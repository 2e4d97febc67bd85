import Link from "next/link";
import { redirect } from "next/navigation";
import { SubmitButton } from "@/components/dashboard/submit-button";
import { Alert, Field, Input } from "@/components/dashboard/ui";
import { oauthProviders } from "@/lib/auth/authjs";
import { safeCallbackUrl } from "@/lib/auth/callback-url";
import { currentViewer } from "@/lib/auth/viewer";
import { signInWithEmail, signInWithProvider } from "./actions";

export const metadata = { title: "Sign in" };

/** Auth.js error types (and our own) → what the person should do next. */
const errors: Record<string, string> = {
  InvalidEmail: "Enter a valid e-mail address.",
  Verification: "That sign-in link is invalid, already used or expired. Request a new one.",
  AccessDenied: "This account cannot sign in. Contact support if you think this is a mistake.",
  RateLimited: "Too many sign-in e-mails were requested. Wait a few minutes and try again.",
  EmailSignInError: "We could not send the e-mail just now. Try again in a moment.",
  OAuthAccountNotLinked: "This e-mail is already registered with another sign-in method. Use that method (for example the e-mail link).",
  Configuration: "Sign-in is not configured correctly on this server. The operator can find details in the logs.",
};

export default async function SignInPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = await searchParams;
  const callbackUrl = safeCallbackUrl(params.callbackUrl);
  if (await currentViewer()) redirect(callbackUrl);
  const error = typeof params.error === "string" ? (errors[params.error] ?? "Could not sign in. Please try again.") : null;
  const providers = oauthProviders();
  return (
    <div className="mx-auto flex max-w-md flex-col px-4 py-16">
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900">Sign in</h1>
      <p className="mt-1 text-sm text-slate-600">New here? Signing in creates your account.</p>
      <div className="mt-6 space-y-4 rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
        {params.signedOut && <Alert tone="green">You are signed out.</Alert>}
        {error && <Alert>{error}</Alert>}
        <form action={signInWithEmail} className="space-y-4">
          <input type="hidden" name="callbackUrl" value={callbackUrl} />
          <Field label="E-mail">
            <Input type="email" name="email" required autoComplete="email" placeholder="you@example.com" autoFocus />
          </Field>
          <SubmitButton pendingLabel="Sending…" className="w-full">
            Email me a sign-in link
          </SubmitButton>
        </form>
        {providers.length > 0 && (
          <>
            <div className="flex items-center gap-3 text-xs uppercase tracking-wider text-slate-400">
              <span className="h-px flex-1 bg-slate-200" /> or <span className="h-px flex-1 bg-slate-200" />
            </div>
            {providers.map((p) => (
              <form key={p.id} action={signInWithProvider}>
                <input type="hidden" name="callbackUrl" value={callbackUrl} />
                <input type="hidden" name="provider" value={p.id} />
                <SubmitButton variant="secondary" pendingLabel="Redirecting…" className="w-full">
                  {`Continue with ${p.name}`}
                </SubmitButton>
              </form>
            ))}
          </>
        )}
      </div>
      <p className="mt-6 text-center text-xs text-slate-500">
        Building an agent? Sign in once to create an API key, then see the <Link href="/docs" className="underline">API reference</Link>.
      </p>
    </div>
  );
}
