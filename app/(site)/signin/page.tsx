import { getTranslations } from "next-intl/server";
import { headers } from "next/headers";
import Link from "next/link";
import { redirect } from "next/navigation";
import { SubmitButton } from "@/components/dashboard/submit-button";
import { Alert, Field, Input } from "@/components/dashboard/ui";
import { oauthProviders } from "@/lib/sign-in/authjs";
import { safeCallbackUrl } from "@/lib/sign-in/callback-url";
import { signInHostMismatch } from "@/lib/sign-in/origin";
import { currentViewer } from "@/lib/auth/viewer";
import { signInWithEmail, signInWithProvider } from "./actions";

export async function generateMetadata() {
  return { title: (await getTranslations("signin"))("title") };
}

/** Auth.js error types (and our own) → what the person should do next (messages signin.err…). */
const errors = [
  "InvalidEmail",
  "Verification",
  "AccessDenied",
  "RateLimited",
  "EmailSignInError",
  "OAuthAccountNotLinked",
  "Configuration",
] as const;
const isKnownError = (e: string): e is (typeof errors)[number] => (errors as readonly string[]).includes(e);

export default async function SignInPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = await searchParams;
  const callbackUrl = safeCallbackUrl(params.callbackUrl);
  if (await currentViewer()) redirect(callbackUrl);
  const t = await getTranslations("signin");
  const error = typeof params.error === "string" ? (isKnownError(params.error) ? t(`err${params.error}`) : t("errOther")) : null;
  const providers = oauthProviders();
  // Open on another host than sign-in links lead to: signing in here would end there.
  const otherHost = signInHostMismatch(await headers());
  return (
    <div className="mx-auto flex max-w-md flex-col px-4 py-16">
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{t("title")}</h1>
      <p className="mt-1 text-sm text-slate-600">{t("newHere")}</p>
      <div className="mt-6 space-y-4 rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
        {otherHost && (
          <div data-testid="signin-other-host">
            <Alert tone="amber">
              {t.rich("otherHost", {
                host: otherHost.host,
                origin: otherHost.origin,
                link: (chunks) => (
                  <a href={`${otherHost.origin}/signin?${new URLSearchParams({ callbackUrl })}`} className="font-medium underline">
                    {chunks}
                  </a>
                ),
              })}
            </Alert>
          </div>
        )}
        {params.signedOut && <Alert tone="green">{t("signedOut")}</Alert>}
        {error && <Alert>{error}</Alert>}
        <form action={signInWithEmail} className="space-y-4">
          <input type="hidden" name="callbackUrl" value={callbackUrl} />
          <Field label={t("email")}>
            <Input type="email" name="email" required autoComplete="email" placeholder="you@example.com" autoFocus />
          </Field>
          <SubmitButton pendingLabel={t("sending")} className="w-full">
            {t("submit")}
          </SubmitButton>
        </form>
        {providers.length > 0 && (
          <>
            <div className="flex items-center gap-3 text-xs uppercase tracking-wider text-slate-600">
              <span className="h-px flex-1 bg-slate-200" /> {t("or")} <span className="h-px flex-1 bg-slate-200" />
            </div>
            {providers.map((p) => (
              <form key={p.id} action={signInWithProvider}>
                <input type="hidden" name="callbackUrl" value={callbackUrl} />
                <input type="hidden" name="provider" value={p.id} />
                <SubmitButton variant="secondary" pendingLabel={t("redirecting")} className="w-full">
                  {t("continueWith", { name: p.name })}
                </SubmitButton>
              </form>
            ))}
          </>
        )}
      </div>
      <p className="mt-6 text-center text-xs text-slate-600">
        {t.rich("agentNote", {
          link: (chunks) => (
            <Link href="/docs" className="underline">
              {chunks}
            </Link>
          ),
        })}
      </p>
    </div>
  );
}
