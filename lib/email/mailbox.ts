import { env } from "@/lib/core/env";
import { isLocalRequest } from "@/lib/net/client-address";

/**
 * Mail goes over SMTP when SMTP_URL is set, otherwise to the dev outbox (the `dev_mail` table,
 * each link also logged, so a headless operator can still sign in); see lib/email/send-mail.ts.
 *
 * Whether /dev/mailbox shows the outbox. Never in a deployment that sends real mail (SMTP_URL);
 * otherwise outside production, or when DEV_MAILBOX=1 / E2E=1 say so explicitly — the Quick start
 * runs `next start` (NODE_ENV=production) on embedded defaults and sets DEV_MAILBOX=1.
 */
export function devMailboxEnabled(): boolean {
  const e = env();
  if (e.SMTP_URL) return false;
  return e.NODE_ENV !== "production" || e.DEV_MAILBOX === true || e.E2E === true;
}

/**
 * Whether this request may read the outbox: it is on, and the request comes from this machine by
 * its socket (lib/net/client-address.ts `isLocalRequest`; X-Forwarded-For, X-Real-IP or Host
 * never count). The outbox holds sign-in links, so anyone reading it could sign in as anyone,
 * the admin included; `npm start` listens on every interface.
 */
export function devMailboxOpenTo(req: { headers: Headers }): boolean {
  return devMailboxEnabled() && isLocalRequest(req);
}
