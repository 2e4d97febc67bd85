import type { Mail } from "./send-mail";

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The magic-link e-mail: plain text plus a minimal HTML version with one button. */
export function signInMail(to: string, url: string, expires: Date): Mail {
  const { host } = new URL(url);
  const minutes = Math.max(1, Math.round((expires.getTime() - Date.now()) / 60_000));
  const text =
    `Sign in to Generation Gateway (${host}):\n\n${url}\n\n` +
    `The link works once and expires in ${minutes} minutes. If you did not ask for it, ignore this e-mail.\n`;
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif;background:#f8fafc;padding:32px">
<div style="max-width:480px;margin:auto;background:#fff;border:1px solid #e2e8f0;border-radius:8px;padding:32px">
<h1 style="font-size:20px;margin:0 0 16px">Sign in to Generation Gateway</h1>
<p style="color:#475569">Click the button to sign in to <strong>${escape(host)}</strong>.</p>
<p style="margin:24px 0"><a href="${escape(url)}" style="background:#3b55e6;color:#fff;padding:10px 18px;border-radius:6px;text-decoration:none">Sign in</a></p>
<p style="color:#64748b;font-size:13px">The link works once and expires in ${minutes} minutes. If you did not ask for it, ignore this e-mail.</p>
</div></body></html>`;
  return { to, subject: `Sign in to Generation Gateway`, text, html, url };
}
