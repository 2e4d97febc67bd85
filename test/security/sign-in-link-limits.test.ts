import { describe, expect, test } from "vitest";
import { LINKS_PER_ADDRESS, LINKS_PER_CLIENT } from "@/lib/sign-in/limits";
import { AuthBrowser, mailsTo } from "@/test/auth-browser";
import { BASE_URL } from "@/test/http";

/**
 * Issue 19 item 5: the raw Auth.js endpoint POST /api/auth/signin/nodemailer skipped the sign-in
 * form's limits. Every way to ask for a link now passes Auth.js's signIn callback, which applies
 * both (lib/sign-in/limits.ts): per client address and per recipient.
 */

const address = (tag: string) => `${tag}-${crypto.randomUUID().slice(0, 8)}@example.test`;
const RATE_LIMITED = `${BASE_URL}/signin?error=RateLimited`;
const randomOctet = () => Math.floor(Math.random() * 250) + 1;

describe("the raw Auth.js endpoint", () => {
  test(`one client address gets ${LINKS_PER_CLIENT.max} links per 15 minutes, to any addresses, whatever X-Forwarded-For says`, async () => {
    const browser = new AuthBrowser("vitest-browser/1.0", `198.51.100.${randomOctet()}`);
    const recipients = Array.from({ length: 25 }, (_, i) => address(`many${i}`));
    const answers: (string | null)[] = [];
    for (const [i, to] of recipients.entries()) {
      const res = await browser.requestLink(to, "/dashboard", {
        "x-forwarded-for": `203.0.113.${i + 1}`,
        "x-real-ip": `203.0.113.${i + 1}`,
      });
      answers.push(res.headers.get("location"));
    }
    expect(answers.slice(0, LINKS_PER_CLIENT.max).every((l) => l?.startsWith("/signin/check-email"))).toBe(true);
    expect(answers.slice(LINKS_PER_CLIENT.max)).toEqual(Array(25 - LINKS_PER_CLIENT.max).fill(RATE_LIMITED));
    const sent = await Promise.all(recipients.map(mailsTo));
    expect(sent.map((m) => m.length)).toEqual([...Array(LINKS_PER_CLIENT.max).fill(1), ...Array(25 - LINKS_PER_CLIENT.max).fill(0)]);

    // Another client is not held back by it.
    const other = await new AuthBrowser("vitest-browser/1.0", `198.18.0.${randomOctet()}`).requestLink(address("other"));
    expect(other.headers.get("location")).toContain("/signin/check-email");
  });

  test(`one recipient gets ${LINKS_PER_ADDRESS.max} links per 15 minutes, from however many client addresses`, async () => {
    const to = address("target");
    const answers = [];
    for (let i = 0; i < LINKS_PER_ADDRESS.max + 2; i++) {
      answers.push((await new AuthBrowser("vitest-browser/1.0", `192.0.2.${i + 10}`).requestLink(to)).headers.get("location"));
    }
    expect(answers.slice(LINKS_PER_ADDRESS.max)).toEqual([RATE_LIMITED, RATE_LIMITED]);
    expect(await mailsTo(to)).toHaveLength(LINKS_PER_ADDRESS.max);
  });
});
