import { networkInterfaces } from "node:os";
import { describe, expect, test } from "vitest";
import { withEnv } from "@/test/env";
import { signInHostMismatch, signInOrigin } from "./origin";

/**
 * Which origin sign-in is for, and when the sign-in page warns that it is not the one the person
 * is on (the page shows the notice when `signInHostMismatch` answers; e2e/sign-in-host.spec.ts
 * shows it in Chromium). The links themselves: app/api/auth/[...nextauth]/route.test.ts.
 */

const on = (host: string, extra: Record<string, string> = {}) => new Headers({ host, ...extra });

/** An address of this machine that is not loopback, when it has one. */
const ownAddress = Object.values(networkInterfaces())
  .flat()
  .find((a) => a && !a.internal && a.family === "IPv4")?.address;

describe("success", () => {
  test("APP_URL unset: a host naming this machine is followed, any port; others get the listening address", () => {
    expect(signInOrigin(on("127.0.0.1:3921"))).toBe("http://127.0.0.1:3921");
    expect(signInOrigin(on("localhost:8080"))).toBe("http://localhost:8080");
    expect(signInOrigin(on("[::1]:3000"))).toBe("http://[::1]:3000");
    if (ownAddress) expect(signInOrigin(on(`${ownAddress}:3000`))).toBe(`http://${ownAddress}:3000`);
    for (const host of ["evil.example", "203.0.113.9:3000", "127.0.0.1@evil.example", "127.0.0.1:3000/evil", ""]) {
      expect(signInOrigin(on(host))).toBe("http://localhost:3000");
    }
    expect(signInOrigin(null)).toBe("http://localhost:3000");
  });

  test("APP_URL or AUTH_URL set: that origin, whatever the host", async () => {
    await withEnv({ APP_URL: "https://gateway.example.com/base" }, async () => {
      expect(signInOrigin(on("127.0.0.1:3921"))).toBe("https://gateway.example.com");
    });
    await withEnv({ APP_URL: "https://gateway.example.com", AUTH_URL: "https://login.example.com" }, async () => {
      expect(signInOrigin(on("gateway.example.com"))).toBe("https://login.example.com");
    });
  });
});

describe("the sign-in page's notice", () => {
  test("none when the page is on the host links are for", async () => {
    expect(signInHostMismatch(on("127.0.0.1:3921"))).toBeNull();
    expect(signInHostMismatch(on("localhost:3000"))).toBeNull();
    await withEnv({ APP_URL: "https://gateway.example.com" }, async () => {
      expect(signInHostMismatch(on("gateway.example.com"))).toBeNull();
      expect(signInHostMismatch(on("GATEWAY.example.com:443"))).toBeNull();
    });
  });

  test("the host and the origin when they differ", async () => {
    await withEnv({ APP_URL: "http://127.0.0.1:3210" }, async () => {
      expect(signInHostMismatch(on("localhost:3210"))).toEqual({ host: "localhost:3210", origin: "http://127.0.0.1:3210" });
    });
    // APP_URL unset, opened under a name that is not this machine's: links go to the listening address.
    expect(signInHostMismatch(on("gateway.lan:3000"))).toEqual({ host: "gateway.lan:3000", origin: "http://localhost:3000" });
  });

  test("behind proxies (TRUST_PROXY), the host the first proxy was asked for", async () => {
    await withEnv({ APP_URL: "https://gateway.example.com", TRUST_PROXY: "1" }, async () => {
      expect(signInHostMismatch(on("10.0.0.5:3000", { "x-forwarded-host": "gateway.example.com" }))).toBeNull();
      expect(signInHostMismatch(on("10.0.0.5:3000", { "x-forwarded-host": "old.example.com" }))).toEqual({
        host: "old.example.com",
        origin: "https://gateway.example.com",
      });
    });
    // Without TRUST_PROXY the header is not believed.
    await withEnv({ APP_URL: "https://gateway.example.com" }, async () => {
      expect(signInHostMismatch(on("gateway.example.com", { "x-forwarded-host": "old.example.com" }))).toBeNull();
    });
  });
});
