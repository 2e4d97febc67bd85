import { eq } from "drizzle-orm";
import { afterEach, describe, expect, test } from "vitest";
import { getDb } from "@/db/client";
import { devMail, sessions, users } from "@/db/schema";
import { resetEnv } from "@/lib/core/env";
import { createUser } from "@/test/factories";
import { startSmtpServer } from "@/test/servers/smtp";
import { AuthBrowser, lastMailTo } from "@/test/auth-browser";
import { withEnv } from "@/test/env";
import { BASE_URL, call } from "@/test/http";
import { GET as GET_ME } from "../../../(gateway)/me/route";

const address = () => `Person.${crypto.randomUUID().slice(0, 8)}@Example.test`;

afterEach(() => {
  delete process.env.ADMIN_EMAILS;
  delete process.env.SMTP_URL;
  resetEnv();
});

describe("magic link", () => {
  test("request a link, open it once: a user and a session with client details exist, the cookie authenticates", async () => {
    const browser = new AuthBrowser();
    const email = address();
    const sent = await browser.requestLink(`  ${email} `);
    expect(sent.status).toBe(302);
    expect(sent.headers.get("location")).toBe("/signin/check-email?provider=nodemailer&type=email");

    const mail = await lastMailTo(email.toLowerCase());
    expect(mail).toMatchObject({ subject: "Sign in to Generation Gateway" });
    expect(mail!.url).toMatch(new RegExp(`^${BASE_URL}/api/auth/callback/nodemailer\\?`));
    expect(mail!.text).toContain(mail!.url);

    const link = new URL(mail!.url!);
    const landed = await browser.request(link.pathname + link.search);
    expect(landed.status).toBe(302);
    expect(landed.headers.get("location")).toBe(`${BASE_URL}/dashboard/keys`);
    const token = browser.sessionToken!;
    expect(token).toMatch(/^[0-9a-f-]{36}$/);
    expect(landed.headers.getSetCookie().join("\n")).toMatch(/authjs\.session-token=.*HttpOnly.*SameSite=Lax/i);

    const db = await getDb();
    const [user] = await db.select().from(users).where(eq(users.email, email.toLowerCase()));
    expect(user).toMatchObject({ role: "user", emailVerified: expect.any(Date) });
    const [session] = await db.select().from(sessions).where(eq(sessions.sessionToken, token));
    expect(session).toMatchObject({ userId: user!.id, ipAddress: browser.socket, userAgent: "vitest-browser/1.0" });

    const me = await call(GET_ME, "/me", { session: token });
    expect(me.body).toMatchObject({ user: { id: user!.id, email: email.toLowerCase() }, auth: { source: "session" } });

    // The session endpoint never exposes the token.
    const json = await (await browser.request("/api/auth/session")).text();
    expect(JSON.parse(json)).toMatchObject({ user: { id: user!.id, email: email.toLowerCase() } });
    expect(json).not.toContain(token);

    // A link works once.
    const replay = await new AuthBrowser().request(link.pathname + link.search);
    expect(replay.headers.get("location")).toBe(`${BASE_URL}/signin?error=Verification`);
  });

  test("an e-mail in ADMIN_EMAILS is promoted to admin at sign-in", async () => {
    const email = address().toLowerCase();
    process.env.ADMIN_EMAILS = `someone@else.test, ${email.toUpperCase()}`;
    resetEnv();
    const browser = new AuthBrowser();
    await browser.requestLink(email);
    const link = new URL((await lastMailTo(email))!.url!);
    await browser.request(link.pathname + link.search);
    const [user] = await (await getDb()).select().from(users).where(eq(users.email, email));
    expect(user!.role).toBe("admin");
  });

  test("a banned user gets no link and cannot use one sent before the ban", async () => {
    const email = address().toLowerCase();
    const user = await createUser({ email });
    const browser = new AuthBrowser();
    await browser.requestLink(email);
    const link = new URL((await lastMailTo(email))!.url!);
    await (await getDb()).update(users).set({ banned: true }).where(eq(users.id, user.id));
    const denied = await browser.request(link.pathname + link.search);
    expect(denied.headers.get("location")).toBe(`${BASE_URL}/signin?error=AccessDenied`);
    expect(browser.sessionToken).toBeUndefined();
    const before = await (await getDb()).select().from(devMail).where(eq(devMail.to, email));
    const refused = await browser.requestLink(email);
    expect(refused.headers.get("location")).toBe(`${BASE_URL}/signin?error=AccessDenied`);
    expect(await (await getDb()).select().from(devMail).where(eq(devMail.to, email))).toHaveLength(before.length);
  });

  test("at most five links per address per 15 minutes", async () => {
    const email = address().toLowerCase();
    const browser = new AuthBrowser();
    for (let i = 0; i < 5; i++) expect((await browser.requestLink(email)).headers.get("location")).toContain("/signin/check-email");
    const sixth = await browser.requestLink(email);
    expect(sixth.headers.get("location")).toBe(`${BASE_URL}/signin?error=RateLimited`);
    expect(await (await getDb()).select().from(devMail).where(eq(devMail.to, email))).toHaveLength(5);
  });

  test("with SMTP configured the link is mailed; an unreachable server sends the form back with an error", async () => {
    const smtp = await startSmtpServer();
    process.env.SMTP_URL = smtp.url;
    resetEnv();
    const email = address().toLowerCase();
    const browser = new AuthBrowser();
    expect((await browser.requestLink(email)).headers.get("location")).toContain("/signin/check-email");
    expect(smtp.received.map((m) => m.to)).toEqual([[email]]);
    expect(await lastMailTo(email)).toBeUndefined();
    await smtp.close();
    // Auth.js names non-client errors "Configuration" on its own routes; the sign-in form's server
    // action receives the EmailSignInError itself and says the mail could not be sent.
    const failed = await browser.requestLink(email);
    expect(failed.headers.get("location")).toMatch(new RegExp(`^${BASE_URL}/signin\\?error=`));
  });

  test("a callback URL on another origin is not followed", async () => {
    const email = address().toLowerCase();
    const browser = new AuthBrowser();
    await browser.requestLink(email, "https://evil.example/steal");
    const link = new URL((await lastMailTo(email))!.url!);
    const landed = await browser.request(link.pathname + link.search);
    expect(new URL(landed.headers.get("location")!).origin).toBe(BASE_URL);
  });

  test("sign-out deletes the session", async () => {
    const email = address().toLowerCase();
    const browser = new AuthBrowser();
    await browser.requestLink(email);
    const link = new URL((await lastMailTo(email))!.url!);
    await browser.request(link.pathname + link.search);
    const token = browser.sessionToken!;
    const csrfToken = await browser.csrf();
    const out = await browser.request("/api/auth/signout", { form: { csrfToken, callbackUrl: "/" } });
    expect(out.status).toBe(302);
    expect(await (await getDb()).select().from(sessions).where(eq(sessions.sessionToken, token))).toEqual([]);
    expect((await call(GET_ME, "/me", { session: token })).status).toBe(401);
  });
});

/**
 * Field findings item 8: on embedded defaults (APP_URL unset, listening address "localhost"), a
 * person on 127.0.0.1 got a link for localhost, the cookie landed there, and they ended signed out
 * on 127.0.0.1. Links, cookies and redirects now follow the host the browser is on when it names this
 * machine, and APP_URL (or AUTH_URL) when the operator set one. (The sign-in form's server action:
 * e2e/sign-in-host.spec.ts.)
 */
describe("the host sign-in is for", () => {
  const opened = async (browser: AuthBrowser, email: string, host: string) => {
    const link = new URL((await lastMailTo(email))!.url!);
    const landed = await browser.request(link.pathname + link.search, { headers: { host } });
    return { link, landed };
  };

  test("APP_URL unset: the link, the cookie and the redirect are for the host the browser is on (127.0.0.1)", async () => {
    const email = address().toLowerCase();
    const browser = new AuthBrowser();
    await browser.requestLink(email, "/dashboard/keys", { host: "127.0.0.1:3000" });
    const { link, landed } = await opened(browser, email, "127.0.0.1:3000");
    expect(link.origin).toBe("http://127.0.0.1:3000");
    expect(landed.headers.get("location")).toBe("http://127.0.0.1:3000/dashboard/keys");
    // A host-only cookie: it belongs to the host the link was opened on.
    const cookie = landed.headers.getSetCookie().find((c) => c.startsWith("authjs.session-token="));
    expect(cookie).toBeDefined();
    expect(cookie).not.toMatch(/Domain=/i);
    expect((await call(GET_ME, "/me", { session: browser.sessionToken })).status).toBe(200);
  });

  test("APP_URL unset: a Host that does not name this machine gets the listening address, never its own", async () => {
    for (const host of ["evil.example", "evil.example:3000", "127.0.0.1@evil.example"]) {
      const email = address().toLowerCase();
      await new AuthBrowser().requestLink(email, "/dashboard/keys", { host });
      expect(new URL((await lastMailTo(email))!.url!).origin).toBe(BASE_URL);
    }
  });

  test("APP_URL set: links and redirects use it, whatever host the request names", async () => {
    await withEnv({ APP_URL: "http://gateway.test:8080" }, async () => {
      const email = address().toLowerCase();
      const browser = new AuthBrowser();
      await browser.requestLink(email, "/dashboard/keys", { host: "127.0.0.1:3000" });
      const { link, landed } = await opened(browser, email, "127.0.0.1:3000");
      expect(link.origin).toBe("http://gateway.test:8080");
      expect(landed.headers.get("location")).toBe("http://gateway.test:8080/dashboard/keys");
    });
  });
});
