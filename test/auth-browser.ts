import { desc, eq } from "drizzle-orm";
import { NextRequest } from "next/server";
import { GET, POST } from "@/app/api/auth/[...nextauth]/route";
import { getDb } from "@/db/client";
import { devMail } from "@/db/schema";
import { SOCKET_HEADER, stampValue } from "@/lib/net/socket-address";
import { BASE_URL } from "./http";

/**
 * A tiny browser for the Auth.js endpoints (/api/auth/*): a cookie jar for Auth.js's CSRF
 * double-submit cookie and the session cookie, and the socket address its requests come from
 * (stamped as the production server does; each browser its own, so per-client limits stay apart).
 */
export class AuthBrowser {
  cookies = new Map<string, string>();
  constructor(
    readonly userAgent = "vitest-browser/1.0",
    readonly socket = `203.0.113.${Math.floor(Math.random() * 250) + 1}`,
  ) {}

  async request(path: string, init: { method?: string; form?: Record<string, string>; headers?: Record<string, string> } = {}) {
    const headers = new Headers({ ...init.headers, "user-agent": this.userAgent, [SOCKET_HEADER]: stampValue(this.socket) });
    if (this.cookies.size) headers.set("cookie", [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; "));
    let body: string | undefined;
    if (init.form) {
      headers.set("content-type", "application/x-www-form-urlencoded");
      body = new URLSearchParams(init.form).toString();
    }
    const req = new NextRequest(new URL(path, BASE_URL), { method: init.method ?? (body ? "POST" : "GET"), headers, body });
    const res = await (req.method === "GET" ? GET(req) : POST(req));
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const [name, ...rest] = pair!.split("=");
      const value = rest.join("=");
      if (/expires=Thu, 01 Jan 1970/i.test(line) || value === "") this.cookies.delete(name!);
      else this.cookies.set(name!, value);
    }
    return res;
  }

  async csrf(): Promise<string> {
    const res = await this.request("/api/auth/csrf");
    return ((await res.json()) as { csrfToken: string }).csrfToken;
  }

  /**
   * Asks for a link the raw way, POST /api/auth/signin/nodemailer (what the sign-in form's server
   * action does in-process); follows Auth.js's own hop (verify-request → our page).
   */
  async requestLink(email: string, callbackUrl = "/dashboard/keys", headers?: Record<string, string>) {
    const csrfToken = await this.csrf();
    const res = await this.request("/api/auth/signin/nodemailer", { form: { email, csrfToken, callbackUrl }, headers });
    const location = new URL(res.headers.get("location") ?? "/", BASE_URL);
    return location.pathname.startsWith("/api/auth/") ? this.request(location.pathname + location.search) : res;
  }

  get sessionToken() {
    return this.cookies.get("authjs.session-token");
  }
}

/** The newest mail in the dev outbox to an address. */
export async function lastMailTo(email: string) {
  const [mail] = await (await getDb()).select().from(devMail).where(eq(devMail.to, email)).orderBy(desc(devMail.createdAt)).limit(1);
  return mail;
}

/** Every mail in the dev outbox to an address. */
export async function mailsTo(email: string) {
  return (await getDb()).select().from(devMail).where(eq(devMail.to, email));
}
