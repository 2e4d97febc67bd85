import { createTransport, type Transporter } from "nodemailer";
import type { Executor } from "@/db/client";
import { devMail } from "@/db/schema";
import { env } from "@/lib/core/env";
import { log } from "@/lib/core/logger";

export type Mail = { to: string; subject: string; text: string; html?: string; /** A sign-in link the mail carries. */ url?: string };

let transport: { url: string; transporter: Transporter } | undefined;

function smtp(url: string): Transporter {
  if (transport?.url !== url) transport = { url, transporter: createTransport(url) };
  return transport.transporter;
}

/** Sends over SMTP, or stores the mail in the dev outbox (see lib/email/mailbox.ts). */
export async function sendMail(db: Executor, mail: Mail): Promise<void> {
  const smtpUrl = env().SMTP_URL;
  if (smtpUrl) {
    const result = await smtp(smtpUrl).sendMail({
      from: env().EMAIL_FROM,
      to: mail.to,
      subject: mail.subject,
      text: mail.text,
      html: mail.html,
    });
    const failed = [...(result.rejected ?? []), ...(result.pending ?? [])];
    if (failed.length > 0) throw new Error(`mail to ${mail.to} was not accepted`);
    return;
  }
  await db.insert(devMail).values({ to: mail.to, subject: mail.subject, text: mail.text, html: mail.html ?? null, url: mail.url ?? null });
  // The link is logged on purpose: without SMTP it is the operator's only way to sign in.
  log.info("mail stored in the dev outbox (SMTP_URL is not set)", { to: mail.to, subject: mail.subject, link: mail.url });
}
