import { EmailSignInError } from "@auth/core/errors";
import { DrizzleAdapter } from "@auth/drizzle-adapter";
import { and, eq, ne, or } from "drizzle-orm";
import NextAuth, { type NextAuthConfig } from "next-auth";
import { headers as requestHeaders } from "next/headers";
import { NextRequest } from "next/server";
import type { Adapter, AdapterSession } from "next-auth/adapters";
import GitHub from "next-auth/providers/github";
import Google from "next-auth/providers/google";
import Nodemailer from "next-auth/providers/nodemailer";
import Yandex from "next-auth/providers/yandex";
import { getDb, type Db } from "@/db/client";
import { accounts, sessions, users, verificationTokens } from "@/db/schema";
import { sendMail } from "@/lib/email/send-mail";
import { signInMail } from "@/lib/email/sign-in-mail";
import { env } from "@/lib/core/env";
import { log } from "@/lib/core/logger";
import { clientAddress } from "@/lib/net/client-address";
import { authSecret } from "../auth/secret";
import { signInOrigin, syncAuthUrl } from "./origin";
import { allowSignInLink } from "./limits";

/**
 * Auth.js v5: e-mail magic links (always) and OAuth providers switched on by env, database
 * sessions in our own tables (the adapter is given them, so role/ban columns survive).
 */

const LINK_MAX_AGE_S = 60 * 60;

syncAuthUrl();

export type OAuthProvider = { id: "github" | "google" | "yandex"; name: string };

/** OAuth providers whose client id and secret are both configured. */
export function oauthProviders(): OAuthProvider[] {
  const e = env();
  const all: (OAuthProvider & { on: boolean })[] = [
    { id: "github", name: "GitHub", on: !!(e.AUTH_GITHUB_ID && e.AUTH_GITHUB_SECRET) },
    { id: "google", name: "Google", on: !!(e.AUTH_GOOGLE_ID && e.AUTH_GOOGLE_SECRET) },
    { id: "yandex", name: "Yandex", on: !!(e.AUTH_YANDEX_ID && e.AUTH_YANDEX_SECRET) },
  ];
  return all.filter((p) => p.on).map(({ id, name }) => ({ id, name }));
}

/** A link Auth.js made, moved onto the origin sign-in is for (the token does not depend on it). */
const onOrigin = (url: string, origin: string) => {
  const link = new URL(url);
  return new URL(link.pathname + link.search, origin).toString();
};

/**
 * `origin`: where sign-in is for (lib/sign-in/origin.ts). The link is put there whatever
 * next-auth derived: in a server action without a configured origin, that is the request's
 * X-Forwarded-Host, which a client may set.
 */
function providers(db: Db, origin: string): NextAuthConfig["providers"] {
  const e = env();
  const enabled = new Set(oauthProviders().map((p) => p.id));
  return [
    Nodemailer({
      // Required by the provider's constructor; sending goes through lib/email (SMTP or the outbox).
      server: e.SMTP_URL ?? "smtp://127.0.0.1:25",
      from: e.EMAIL_FROM,
      maxAge: LINK_MAX_AGE_S,
      // A delivery failure becomes EmailSignInError, which the sign-in form explains; details stay in the log.
      sendVerificationRequest: ({ identifier, url, expires }) => {
        const sending = sendMail(db, signInMail(identifier, onOrigin(url, origin), expires)).catch((err: unknown) => {
          log.error("sign-in e-mail not sent", { to: identifier, error: err });
          throw new EmailSignInError("The sign-in e-mail could not be sent", { cause: err });
        });
        // @auth/core awaits this only after hashing the token, so a fast failure (connection
        // refused) would otherwise count as an unhandled rejection in between. It still rejects
        // for Auth.js's Promise.all.
        sending.catch(() => {});
        return sending;
      },
    }),
    ...(enabled.has("github") ? [GitHub({ clientId: e.AUTH_GITHUB_ID, clientSecret: e.AUTH_GITHUB_SECRET })] : []),
    ...(enabled.has("google") ? [Google({ clientId: e.AUTH_GOOGLE_ID, clientSecret: e.AUTH_GOOGLE_SECRET })] : []),
    ...(enabled.has("yandex") ? [Yandex({ clientId: e.AUTH_YANDEX_ID, clientSecret: e.AUTH_YANDEX_SECRET })] : []),
  ];
}

/**
 * Our tables, plus what the adapter cannot know: e-mails stored lower-cased (OAuth profiles keep
 * their case) and the client address and user agent on each new session (the config is built per
 * request, so the request is at hand).
 */
function adapter(db: Db, req: Request | undefined): Adapter {
  const base = DrizzleAdapter(db, {
    usersTable: users,
    accountsTable: accounts,
    sessionsTable: sessions,
    verificationTokensTable: verificationTokens,
  });
  const client = req ? { ipAddress: clientAddress(req), userAgent: req.headers.get("user-agent")?.slice(0, 512) ?? null } : {};
  return {
    ...base,
    createUser: (user) => base.createUser!({ ...user, email: user.email.trim().toLowerCase() }),
    getUserByEmail: (email) => base.getUserByEmail!(email.trim().toLowerCase()),
    createSession: (session) => base.createSession!({ ...session, ...client } as AdapterSession),
  };
}

/** A ban in force on the account by id or e-mail refuses sign-in (and sending it a link). */
async function isBanned(db: Db, id: string | undefined, email: string | undefined): Promise<boolean> {
  const match = or(id ? eq(users.id, id) : undefined, email ? eq(users.email, email) : undefined);
  if (!match) return false;
  const rows = await db.select({ banned: users.banned, banExpires: users.banExpires }).from(users).where(match);
  return rows.some((r) => r.banned && (!r.banExpires || r.banExpires > new Date()));
}

/**
 * The headers of the request being served: the route handler's own, or, for `signIn()` called by
 * the sign-in form's server action (where next-auth passes no request), the action's.
 */
async function headersOf(req: Request | undefined): Promise<Headers | null> {
  if (req) return req.headers;
  try {
    return new Headers(await requestHeaders());
  } catch {
    return null; // Outside a request (scripts, tests): no client address.
  }
}

async function buildConfig(req: Request | undefined): Promise<NextAuthConfig> {
  const db = await getDb();
  syncAuthUrl();
  const site = signInOrigin(await headersOf(req));
  return {
    adapter: adapter(db, req),
    secret: authSecret(),
    trustHost: true,
    session: { strategy: "database" },
    providers: providers(db, site),
    pages: { signIn: "/signin", verifyRequest: "/signin/check-email", error: "/signin", signOut: "/signout" },
    callbacks: {
      async signIn({ user, email }) {
        const address = user.email?.trim().toLowerCase();
        if (await isBanned(db, user.id, address)) return false;
        if (email?.verificationRequest && address) {
          const headers = await headersOf(req);
          const client = headers ? clientAddress({ headers }) : "unknown";
          if (!(await allowSignInLink(db, { client, email: address }))) return "/signin?error=RateLimited";
        }
        return true;
      },
      /**
       * Only this site: the origin sign-in is for. `baseUrl` alone is not enough: Next.js spells
       * 127.0.0.1 as "localhost" in route handlers, so a callback to the configured 127.0.0.1
       * origin would be taken for a foreign one and dropped.
       */
      redirect({ url, baseUrl }) {
        if (url.startsWith("/") && !url.startsWith("//")) return `${site}${url}`;
        try {
          const origin = new URL(url).origin;
          if (origin === site || origin === baseUrl) return url;
        } catch {
          // Not a URL: fall through to the site root.
        }
        return site;
      },
      // An explicit shape: the raw session carries the session token, which must never reach JSON.
      session({ session, user }) {
        return { expires: session.expires, user: { id: user.id, name: user.name, email: user.email, image: user.image } };
      },
    },
    events: {
      // ADMIN_EMAILS promotes at sign-in; removing an address never demotes (admins may be made by hand).
      async signIn({ user }) {
        const email = user.email?.toLowerCase();
        if (!user.id || !email || !env().ADMIN_EMAILS.includes(email)) return;
        await db
          .update(users)
          .set({ role: "admin" })
          .where(and(eq(users.id, user.id), ne(users.role, "admin")));
      },
    },
    logger: {
      error: (error) => log.warn("auth", { name: error.name, message: error.message }),
      warn: (code) => log.warn("auth warning", { code }),
      debug: () => {},
    },
  };
}

const auth = NextAuth(buildConfig);
export const { signIn, signOut } = auth;

type AuthRoute = (req: NextRequest) => Promise<Response>;

/**
 * Auth.js's routes see the request on the origin sign-in is for (without a configured one,
 * next-auth would take Next.js's spelling of the host, "localhost" for 127.0.0.1), so their links,
 * cookies and redirects are all for the host the browser is on.
 */
const onSignInOrigin =
  (route: AuthRoute): AuthRoute =>
  (req) => {
    const url = new URL(req.url);
    return route(new NextRequest(new URL(url.pathname + url.search, signInOrigin(req.headers)), req));
  };

export const handlers = { GET: onSignInOrigin(auth.handlers.GET), POST: onSignInOrigin(auth.handlers.POST) };
