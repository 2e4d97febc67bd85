import { eq } from "drizzle-orm";
import { describe, expect, test } from "vitest";
import { POST as NOTIFY } from "@/app/(gateway)/webhooks/yookassa/notify/route";
import { getDb } from "@/db/client";
import { inboundEvents, sessions, users } from "@/db/schema";
import { EnvError, parseEnv } from "@/lib/core/env";
import { clientAddress } from "@/lib/net/client-address";
import { SOCKET_HEADER, stampValue } from "@/lib/net/socket-address";
import { AuthBrowser, lastMailTo } from "@/test/auth-browser";
import { withEnv } from "@/test/env";
import { call } from "@/test/http";

/**
 * Issue 19 item 4: client addresses taken from headers anyone can send. The client address is the
 * socket's peer (lib/net/client-address.ts); X-Forwarded-For counts only through TRUST_PROXY.
 */

const notification = (id: string) => ({ type: "notification", event: "payment.succeeded", object: { id, status: "succeeded" } });
const notify = (id: string, socket: string, headers: Record<string, string> = {}) =>
  call(NOTIFY, "/webhooks/yookassa/notify", { body: notification(id), socket, headers });
const eventsFor = async (id: string) =>
  (await getDb())
    .select()
    .from(inboundEvents)
    .where(eq(inboundEvents.externalId, `payment.succeeded:${id}`));
const randomOctet = () => Math.floor(Math.random() * 250) + 1;

describe("without TRUST_PROXY, X-Forwarded-For is not believed", () => {
  test("a new X-Forwarded-For per request does not escape the per-IP limit of payment notifications", async () => {
    const socket = `198.51.100.${randomOctet()}`;
    const answers = [];
    for (let i = 0; i < 150; i++)
      answers.push(await notify(`spoof-${i}`, socket, { "x-forwarded-for": `185.71.76.${i % 30}, 10.${i}.0.1` }));
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(100);
    expect(statuses.filter((s) => s === 429)).toHaveLength(50);
    expect(answers.at(-1)!.body).toMatchObject({ success: false, error: "rate_limited" });
  });

  test("X-Forwarded-For naming the payment provider's range does not pass its address allowlist; nothing is recorded", async () => {
    const id = `lp_forged_${crypto.randomUUID()}`;
    const spoofs: Record<string, string>[] = [
      { "x-forwarded-for": "185.71.76.1" },
      { "x-real-ip": "185.71.76.1" },
      { forwarded: "for=185.71.76.1" },
    ];
    for (const headers of spoofs) {
      const res = await notify(id, "203.0.113.50", headers);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({
        success: false,
        error: "invalid_signature",
        message: "The notification does not come from the payment provider",
      });
    }
    expect(await eventsFor(id)).toEqual([]);
  });

  test("a socket inside the provider's range passes the allowlist (the body is then checked against the provider)", async () => {
    const id = `lp_unknown_${crypto.randomUUID()}`;
    const res = await notify(id, "185.71.76.1");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true, processed: false, reason: "unknown_payment", deduped: false });
    expect(await eventsFor(id)).toHaveLength(1);
  });

  test("a session records the socket's address, not the forwarded one", async () => {
    const email = `spoof-${crypto.randomUUID().slice(0, 8)}@example.test`;
    const browser = new AuthBrowser("vitest-browser/1.0", "198.51.100.77");
    await browser.requestLink(email, "/dashboard", { "x-forwarded-for": "1.2.3.4" });
    const link = new URL((await lastMailTo(email))!.url!);
    await browser.request(link.pathname + link.search, { headers: { "x-forwarded-for": "1.2.3.4", "x-real-ip": "1.2.3.4" } });
    const db = await getDb();
    const [user] = await db.select().from(users).where(eq(users.email, email));
    const [session] = await db.select().from(sessions).where(eq(sessions.userId, user!.id));
    expect(session!.ipAddress).toBe("198.51.100.77");
  });

  test("a request without the server's socket stamp (or with a forged one) has an unknown address", () => {
    expect(clientAddress({ headers: new Headers({ "x-forwarded-for": "185.71.76.1" }) })).toBe("unknown");
    expect(clientAddress({ headers: new Headers({ [SOCKET_HEADER]: "guessed-token 185.71.76.1 direct" }) })).toBe("unknown");
    expect(clientAddress({ headers: new Headers({ [SOCKET_HEADER]: stampValue("::ffff:185.71.76.1") }) })).toBe("185.71.76.1");
  });
});

describe("TRUST_PROXY names the proxies whose X-Forwarded-For entries count", () => {
  const from = (socket: string, forwardedFor?: string) =>
    clientAddress({
      headers: new Headers({ [SOCKET_HEADER]: stampValue(socket), ...(forwardedFor ? { "x-forwarded-for": forwardedFor } : {}) }),
    });

  test("a hop count: one load balancer appends the client; entries further left are the client's own", async () => {
    await withEnv({ TRUST_PROXY: "1" }, async () => {
      expect(from("10.0.0.5", "6.6.6.6, 185.71.76.1")).toBe("185.71.76.1");
      expect(from("10.0.0.5")).toBe("10.0.0.5");
      // Behind the balancer the allowlist sees the provider's real address.
      const id = `lp_lb_${crypto.randomUUID()}`;
      expect((await notify(id, "10.0.0.5", { "x-forwarded-for": "185.71.76.1" })).status).toBe(200);
      expect((await notify(id, "10.0.0.5", { "x-forwarded-for": "185.71.76.1, 203.0.113.9" })).status).toBe(401);
    });
    await withEnv({ TRUST_PROXY: "2" }, async () => {
      expect(from("10.0.0.5", "6.6.6.6, 185.71.76.1, 10.0.0.7")).toBe("185.71.76.1");
    });
  });

  test("a CIDR list: proxies are skipped from the right, the first other address is the client", async () => {
    await withEnv({ TRUST_PROXY: "10.0.0.0/8, fd00::/8" }, async () => {
      expect(from("10.0.0.5", "6.6.6.6, 185.71.76.1, 10.0.0.7")).toBe("185.71.76.1");
      expect(from("fd00::2", "185.71.76.1")).toBe("185.71.76.1");
      // A socket outside the list is the client itself, whatever it forwards.
      expect(from("203.0.113.9", "185.71.76.1")).toBe("203.0.113.9");
      // A forwarded entry that is not an address ends the walk at the proxy that passed it on.
      expect(from("10.0.0.5", "185.71.76.1, not-an-ip")).toBe("10.0.0.5");
    });
  });

  test("a value that is neither form stops start-up, naming TRUST_PROXY", () => {
    for (const bad of ["yes", "10.0.0.0/33", "10.0.0.1/8/2", "proxy.example"]) {
      let error: unknown;
      try {
        parseEnv({ TRUST_PROXY: bad });
      } catch (err) {
        error = err;
      }
      expect(error).toBeInstanceOf(EnvError);
      expect((error as EnvError).problems).toEqual([expect.stringMatching(/^TRUST_PROXY: /)]);
    }
    expect(parseEnv({ TRUST_PROXY: "0" }).TRUST_PROXY).toBe("0");
  });
});
