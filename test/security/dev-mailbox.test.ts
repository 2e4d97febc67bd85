import { once } from "node:events";
import { createServer, request, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, test } from "vitest";
import { getDb } from "@/db/client";
import { devMail } from "@/db/schema";
import { devMailboxOpenTo } from "@/lib/email/mailbox";
import { listOutboxLinks } from "@/lib/email/outbox";
import { sendMail } from "@/lib/email/send-mail";
import { isLocalRequest } from "@/lib/net/client-address";
import { installSocketAddressStamp, SOCKET_HEADER, socketPeer, stampValue } from "@/lib/net/socket-address";
import { AuthBrowser, lastMailTo } from "@/test/auth-browser";
import { withEnv } from "@/test/env";

/**
 * Issue 19 item 1: admin takeover through /dev/mailbox. The outbox holds sign-in links, so the page
 * answers only requests whose socket is loopback (never headers), and shows nothing but the links.
 * The page itself is proven on the production build by e2e/client-address.spec.ts.
 */

/** Headers as Next.js hands them to a page: built from the Node request's `headers`. */
const asFetchHeaders = (h: IncomingHttpHeaders) => {
  const headers = new Headers();
  for (const [k, v] of Object.entries(h)) if (v !== undefined) headers.set(k, Array.isArray(v) ? v.join(", ") : v);
  return headers;
};

describe("the socket stamp", () => {
  test("overwrites what a client sends under its name, notes forwarding headers, and keeps a genuine stamp (Next.js re-requesting itself)", async () => {
    await installSocketAddressStamp();
    const seen: Headers[] = [];
    const server = createServer((req, res) => {
      seen.push(asFetchHeaders(req.headers));
      res.end();
    });
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    const { port } = server.address() as AddressInfo;
    const send = async (headers: Record<string, string>) => {
      const req = request({ host: "127.0.0.1", port, headers });
      req.end();
      const [res] = (await once(req, "response")) as [NodeJS.ReadableStream];
      res.resume();
      await once(res, "end");
    };
    try {
      await send({ [SOCKET_HEADER]: "forged 203.0.113.9 direct" });
      await send({ [SOCKET_HEADER]: "forged 203.0.113.9 direct", "x-forwarded-for": "127.0.0.1" });
      await send({});
      // A server action's redirect: Next.js fetches the target page over loopback with the
      // original request's headers, stamp included; the original peer stands.
      await send({ [SOCKET_HEADER]: stampValue("203.0.113.9"), "x-forwarded-for": "203.0.113.9" });
    } finally {
      server.close();
    }
    expect(seen.map((h) => socketPeer(h))).toEqual([
      { address: "127.0.0.1", forwarded: false },
      { address: "127.0.0.1", forwarded: true },
      { address: "127.0.0.1", forwarded: false },
      { address: "203.0.113.9", forwarded: false },
    ]);
    expect(seen.map((h) => isLocalRequest({ headers: h }))).toEqual([true, false, true, false]);
  });
});

describe("who may open /dev/mailbox", () => {
  const stamped = (address: string, extra: Record<string, string> = {}, forwarded = false) => ({
    headers: new Headers({ ...extra, [SOCKET_HEADER]: stampValue(address, forwarded) }),
  });
  const spoof = { "x-forwarded-for": "127.0.0.1", "x-real-ip": "127.0.0.1", host: "localhost:3000", forwarded: "for=127.0.0.1" };

  test("only a loopback socket that no proxy forwarded; headers never make a request local", async () => {
    await withEnv({ DEV_MAILBOX: "1", NODE_ENV: "production" }, async () => {
      expect(devMailboxOpenTo(stamped("127.0.0.1"))).toBe(true);
      expect(devMailboxOpenTo(stamped("::1"))).toBe(true);
      expect(devMailboxOpenTo(stamped("::ffff:127.0.0.1"))).toBe(true);
      expect(devMailboxOpenTo(stamped("192.0.2.2", spoof))).toBe(false);
      expect(devMailboxOpenTo(stamped("192.0.2.2", spoof, true))).toBe(false);
      // A reverse proxy on this machine connects from loopback on behalf of anyone.
      expect(devMailboxOpenTo(stamped("127.0.0.1", { "x-forwarded-for": "203.0.113.9" }, true))).toBe(false);
      // No stamp from the server, or a forged one.
      expect(devMailboxOpenTo({ headers: new Headers(spoof) })).toBe(false);
      expect(devMailboxOpenTo({ headers: new Headers({ [SOCKET_HEADER]: "0000 127.0.0.1 direct" }) })).toBe(false);
      // TRUST_PROXY plays no part.
      await withEnv({ TRUST_PROXY: "0.0.0.0/0" }, async () => expect(devMailboxOpenTo(stamped("192.0.2.2", spoof))).toBe(false));
    });
  });

  test("never when mail really goes out (SMTP_URL), nor in production without DEV_MAILBOX / E2E", async () => {
    await withEnv({ SMTP_URL: "smtp://127.0.0.1:1", NODE_ENV: "development" }, async () =>
      expect(devMailboxOpenTo(stamped("127.0.0.1"))).toBe(false),
    );
    await withEnv({ NODE_ENV: "production" }, async () => expect(devMailboxOpenTo(stamped("127.0.0.1"))).toBe(false));
  });
});

describe("what /dev/mailbox shows", () => {
  test("sign-in links only: recipient, link and time, never a mail's subject, text or HTML", async () => {
    const db = await getDb();
    const to = `links-${crypto.randomUUID().slice(0, 8)}@example.test`;
    await sendMail(db, { to, subject: "Your balance is low", text: "private balance details", html: "<p>private</p>" });
    await sendMail(db, { to, subject: "Sign in", text: "private text", url: "http://localhost:3000/api/auth/callback/nodemailer?token=t" });
    const mine = (await listOutboxLinks(db, 1000)).filter((m) => m.to === to);
    expect(mine).toEqual([
      { id: expect.any(String), to, url: "http://localhost:3000/api/auth/callback/nodemailer?token=t", createdAt: expect.any(Date) },
    ]);
    expect(await db.select().from(devMail)).toEqual(
      expect.arrayContaining([expect.objectContaining({ to, subject: "Your balance is low" })]),
    );
  });
});

describe("sign-in links open where the server listens", () => {
  test("with PORT set and APP_URL unset, the link and the session cookie are for localhost:PORT", async () => {
    await withEnv({ PORT: "4567" }, async () => {
      const email = `port-${crypto.randomUUID().slice(0, 8)}@example.test`;
      const browser = new AuthBrowser();
      await browser.requestLink(email, "/dashboard");
      const link = new URL((await lastMailTo(email))!.url!);
      expect(link.origin).toBe("http://localhost:4567");
      expect(link.pathname).toBe("/api/auth/callback/nodemailer");
      const landed = await browser.request(link.pathname + link.search);
      expect(landed.headers.get("location")).toBe("http://localhost:4567/dashboard");
      // A host-only cookie (no Domain): it belongs to the host the link was opened on.
      const cookie = landed.headers.getSetCookie().find((c) => c.startsWith("authjs.session-token="));
      expect(cookie).toMatch(/; Path=\//);
      expect(cookie).not.toMatch(/Domain=/i);
    });
  });
});
