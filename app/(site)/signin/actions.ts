"use server";

import type { AuthError } from "next-auth";
import { redirect } from "next/navigation";
import { z } from "zod";
import { oauthProviders, signIn, signOut } from "@/lib/sign-in/authjs";
import { safeCallbackUrl } from "@/lib/sign-in/callback-url";

function back(error: string, callbackUrl: string): never {
  redirect(`/signin?${new URLSearchParams({ error, callbackUrl })}`);
}

/** Auth.js errors carry `type` and `kind`; checked by shape, since next-auth is bundled into several chunks. */
const isAuthError = (err: unknown): err is AuthError =>
  err instanceof Error && typeof (err as Partial<AuthError>).type === "string" && typeof (err as { kind?: unknown }).kind === "string";

/** Auth.js reports failures as thrown AuthErrors; anything else (incl. Next's redirect) propagates. */
async function run(callbackUrl: string, action: () => Promise<unknown>) {
  try {
    await action();
  } catch (err) {
    if (isAuthError(err)) back(err.type, callbackUrl);
    throw err;
  }
}

export async function signInWithEmail(formData: FormData) {
  const callbackUrl = safeCallbackUrl(formData.get("callbackUrl"));
  const email = z.email().safeParse(String(formData.get("email") ?? "").trim());
  if (!email.success) back("InvalidEmail", callbackUrl);
  // The per-client and per-address limits are applied by Auth.js's signIn callback
  // (lib/sign-in/limits.ts), which a raw POST /api/auth/signin/nodemailer passes too.
  await run(callbackUrl, () => signIn("nodemailer", { email: email.data, redirectTo: callbackUrl }));
}

export async function signInWithProvider(formData: FormData) {
  const callbackUrl = safeCallbackUrl(formData.get("callbackUrl"));
  const provider = String(formData.get("provider") ?? "");
  if (!oauthProviders().some((p) => p.id === provider)) back("Configuration", callbackUrl);
  await run(callbackUrl, () => signIn(provider, { redirectTo: callbackUrl }));
}

export async function signOutAction() {
  await signOut({ redirectTo: "/signin?signedOut=1" });
}
