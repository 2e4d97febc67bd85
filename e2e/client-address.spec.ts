import { request as httpRequest } from "node:http";
import { networkInterfaces } from "node:os";
import { expect, test } from "@playwright/test";
import { baseURL } from "../playwright.config";
import { userCreate } from "./sign-in";

/**
 * Issue 19: the client address is the socket's (lib/net/socket-address.ts stamps it on every
 * request from instrumentation.ts; Next.js gives handlers no socket). Proven here on `next start`:
 * the server listens on 127.0.0.1, and these requests reach it from this machine's non-loopback
 * address (a socket bound to it connects to 127.0.0.1 with that source address), so the server
 * sees a non-loopback peer whatever the headers claim.
 */

/** This machine's first non-loopback IPv4 address: the source of the "remote" requests. */
function externalAddress(): string {
  for (const list of Object.values(networkInterfaces())) {
    for (const a of list ?? []) if (a.family === "IPv4" && !a.internal) return a.address;
  }
  throw new Error("this machine has no non-loopback IPv4 address to send requests from");
}

type Answer = { status: number; headers: Record<string, string | string[] | undefined>; body: string };

/**
 * A plain HTTP request to the server, optionally from a given local source address, on a new
 * connection: userCreate blocks this worker for seconds, long enough for the server to close an
 * idle keep-alive socket that the next request would otherwise be written to ("socket hang up").
 */
function send(
  path: string,
  options: { method?: string; headers?: Record<string, string>; body?: string; from?: string } = {},
): Promise<Answer> {
  const url = new URL(path, baseURL);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname + url.search,
        method: options.method ?? "GET",
        headers: options.headers,
        localAddress: options.from,
        agent: false,
      },
      (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (body += chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on("error", reject);
    req.end(options.body);
  });
}

const spoofedLocal = (port: string) => ({
  "x-forwarded-for": "127.0.0.1",
  "x-real-ip": "127.0.0.1",
  forwarded: "for=127.0.0.1",
  host: `127.0.0.1:${port}`,
  "x-gateway-socket": "guess 127.0.0.1 direct",
});

test("/dev/mailbox answers only a loopback socket: headers claiming loopback from another address get 404", async () => {
  const remote = externalAddress();
  const port = new URL(baseURL).port;

  const local = await send("/dev/mailbox");
  expect(local.status).toBe(200);
  expect(local.body).toContain("Dev mailbox");

  const spoofed = await send("/dev/mailbox", { from: remote, headers: spoofedLocal(port) });
  expect(spoofed.status).toBe(404);
  expect(spoofed.body).not.toContain("/api/auth/callback/");

  // A proxy on this machine forwarding someone else is loopback by socket, but not local.
  const proxied = await send("/dev/mailbox", { headers: { "x-forwarded-for": "203.0.113.9" } });
  expect(proxied.status).toBe(404);
});

test("route handlers count per-IP limits by the socket: a new X-Forwarded-For per request does not escape the sign-in limit", async () => {
  const remote = externalAddress();
  const csrf = await send("/api/auth/csrf", { from: remote });
  const { csrfToken } = JSON.parse(csrf.body) as { csrfToken: string };
  const cookie = ([] as string[])
    .concat(csrf.headers["set-cookie"] ?? [])
    .map((c) => c.split(";")[0])
    .join("; ");
  const ask = (i: number) =>
    send("/api/auth/signin/nodemailer", {
      from: remote,
      method: "POST",
      headers: {
        cookie,
        "content-type": "application/x-www-form-urlencoded",
        "x-forwarded-for": `198.51.100.${i + 1}`,
        "x-real-ip": `198.51.100.${i + 1}`,
      },
      body: new URLSearchParams({ email: `socket-${i}-${Date.now()}@example.test`, csrfToken, callbackUrl: "/dashboard" }).toString(),
    });
  const locations: string[] = [];
  for (let i = 0; i < 22; i++) locations.push(String((await ask(i)).headers.location));
  expect(locations.slice(0, 20).every((l) => !l.includes("error="))).toBe(true);
  expect(locations.slice(20)).toEqual([`${baseURL}/signin?error=RateLimited`, `${baseURL}/signin?error=RateLimited`]);

  // The limit is the remote address's alone: this machine's loopback still gets a link.
  const other = await send("/api/auth/csrf");
  const otherCookie = ([] as string[])
    .concat(other.headers["set-cookie"] ?? [])
    .map((c) => c.split(";")[0])
    .join("; ");
  const mine = await send("/api/auth/signin/nodemailer", {
    method: "POST",
    headers: { cookie: otherCookie, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      email: `socket-local-${Date.now()}@example.test`,
      csrfToken: (JSON.parse(other.body) as { csrfToken: string }).csrfToken,
    }).toString(),
  });
  expect(String(mine.headers.location)).not.toContain("error=");
});

test("the local payment provider's page and buttons are 404 for anyone but the payment's owner", async ({ browser }) => {
  const owner = userCreate("--email", `local-pay-${Date.now()}@example.test`);
  const created = await send("/billing/topup", {
    method: "POST",
    headers: { authorization: `Bearer ${owner.apiKey}`, "content-type": "application/json" },
    body: JSON.stringify({ amountRub: 100, returnUrl: `${baseURL}/dashboard/billing` }),
  });
  expect(created.status).toBe(201);
  const { confirmationUrl, payment } = JSON.parse(created.body) as { confirmationUrl: string; payment: { paymentProviderId: string } };
  expect(new URL(confirmationUrl).pathname).toBe(`/pay/local/${payment.paymentProviderId}`);

  const anonymous = await browser.newContext();
  const page = await anonymous.newPage();
  expect((await page.goto(confirmationUrl))!.status()).toBe(404);
  for (const outcome of ["pay", "decline"]) {
    const res = await send(`/pay/local/${payment.paymentProviderId}/${outcome}`, { method: "POST" });
    expect(res.status).toBe(404);
  }
  await anonymous.close();

  // The owner's payment is still pending, and nothing was granted.
  const after = await send(`/billing/payments/${payment.paymentProviderId}`, { headers: { authorization: `Bearer ${owner.apiKey}` } });
  expect(JSON.parse(after.body)).toMatchObject({ payment: { status: "pending" } });

  // A return address on another site is refused.
  const foreign = await send("/billing/topup", {
    method: "POST",
    headers: { authorization: `Bearer ${owner.apiKey}`, "content-type": "application/json" },
    body: JSON.stringify({ amountRub: 100, returnUrl: "https://evil.example/phish" }),
  });
  expect(foreign.status).toBe(400);
  expect(JSON.parse(foreign.body)).toMatchObject({ error: "invalid_body", issues: [{ path: ["returnUrl"] }] });
});
