import { env } from "@/lib/env";

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
