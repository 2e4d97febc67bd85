import { eq } from "drizzle-orm";
import { afterEach, describe, expect, test } from "vitest";
import { getDb } from "@/db/client";
import { devMail } from "@/db/schema";
import { resetEnv } from "@/lib/core/env";
import { startSmtpServer } from "@/test/servers/smtp";
import { devMailboxEnabled } from "./mailbox";
import { sendMail } from "./send-mail";
import { signInMail } from "./sign-in-mail";

const saved = { ...process.env };
afterEach(() => {
  for (const k of ["SMTP_URL", "DEV_MAILBOX", "E2E", "NODE_ENV"]) {
    if (saved[k] === undefined) delete process.env[k];
    else process.env[k] = saved[k];
  }
  resetEnv();
});

function setEnv(vars: Record<string, string | undefined>) {
  for (const [k, v] of Object.entries(vars)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  resetEnv();
}

const link = "http://localhost:3000/api/auth/callback/nodemailer?token=abc&email=a%40example.test";

describe("delivery", () => {
  test("with SMTP_URL the mail goes over SMTP, never to the outbox", async () => {
    const smtp = await startSmtpServer();
    try {
      setEnv({ SMTP_URL: smtp.url, DEV_MAILBOX: "1" });
      const to = `smtp-${crypto.randomUUID().slice(0, 8)}@example.test`;
      await sendMail(await getDb(), signInMail(to, link, new Date(Date.now() + 3_600_000)));
      expect(smtp.received).toHaveLength(1);
      expect(smtp.received[0]).toMatchObject({ from: "no-reply@localhost", to: [to] });
      expect(smtp.received[0]!.data).toContain("Subject: Sign in to Generation Gateway");
      expect(smtp.received[0]!.data.replace(/=\r\n/g, "")).toContain("token=3Dabc");
      expect(await (await getDb()).select().from(devMail).where(eq(devMail.to, to))).toEqual([]);
      expect(devMailboxEnabled()).toBe(false);
    } finally {
      await smtp.close();
    }
  });

  test("without SMTP_URL the mail is kept in the outbox with its link", async () => {
    setEnv({ SMTP_URL: undefined });
    const to = `outbox-${crypto.randomUUID().slice(0, 8)}@example.test`;
    await sendMail(await getDb(), signInMail(to, link, new Date(Date.now() + 3_600_000)));
    const [row] = await (await getDb()).select().from(devMail).where(eq(devMail.to, to));
    expect(row).toMatchObject({ subject: "Sign in to Generation Gateway", url: link });
    expect(row!.text).toContain(link);
    expect(row!.html).toContain("token=abc");
  });

  test("an SMTP server that is down makes sending fail (the sign-in form then shows an error)", async () => {
    const smtp = await startSmtpServer();
    await smtp.close();
    setEnv({ SMTP_URL: smtp.url });
    await expect(sendMail(await getDb(), signInMail("x@example.test", link, new Date()))).rejects.toThrow();
  });
});

describe("the dev mailbox is shown", () => {
  test.each([
    [{ NODE_ENV: "development" }, true],
    [{ NODE_ENV: "test" }, true],
    [{ NODE_ENV: "production" }, false],
    [{ NODE_ENV: "production", DEV_MAILBOX: "1" }, true],
    [{ NODE_ENV: "production", E2E: "1" }, true],
    [{ NODE_ENV: "production", DEV_MAILBOX: "0" }, false],
    [{ NODE_ENV: "development", SMTP_URL: "smtp://127.0.0.1:25" }, false],
    [{ NODE_ENV: "production", DEV_MAILBOX: "1", SMTP_URL: "smtp://127.0.0.1:25" }, false],
  ])("%j → %s", (vars, shown) => {
    setEnv({ SMTP_URL: undefined, DEV_MAILBOX: undefined, E2E: undefined, ...vars });
    expect(devMailboxEnabled()).toBe(shown);
  });
});
