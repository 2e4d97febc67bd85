import type { Executor } from "@/db/client";
import { hitWindow } from "@/lib/rate-limit/sliding-window";

/** Sign-in e-mails one client address may ask for: a shared office is fine, a mail cannon is not. */
export const LINKS_PER_CLIENT = { max: 20, windowMs: 15 * 60_000 };
/** Sign-in e-mails per recipient: enough for typos and retries, too few to mail-bomb anyone. */
export const LINKS_PER_ADDRESS = { max: 5, windowMs: 15 * 60_000 };

/**
 * Counts one request for a sign-in link against both limits; false when either is spent. Called
 * from the Auth.js `signIn` callback, which every way of asking for a link passes through (the
 * sign-in form's server action and a raw POST /api/auth/signin/nodemailer alike), before any
 * token is made or mail sent. `client` comes from lib/net/client-address.ts.
 */
export async function allowSignInLink(db: Executor, request: { client: string; email: string }): Promise<boolean> {
  const byClient = await hitWindow(db, { key: `signin-ip:${request.client}`, ...LINKS_PER_CLIENT });
  if (!byClient.allowed) return false;
  const byAddress = await hitWindow(db, { key: `signin-mail:${request.email}`, ...LINKS_PER_ADDRESS });
  return byAddress.allowed;
}
