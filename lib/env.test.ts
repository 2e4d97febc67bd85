import { describe, expect, test } from "vitest";
import { EnvError, parseEnv } from "./env";

describe("config", () => {
  test("defaults describe the embedded setup", () => {
    const env = parseEnv({});
    expect(env).toMatchObject({
      DATA_DIR: "./data",
      MAX_BODY_BYTES: 1024 * 1024,
      MAX_UPLOAD_BYTES: 10 * 1024 * 1024,
      MIN_TOPUP_RUB: 100,
      API_KEY_PREFIX: "gw",
      PROVIDER: "local",
      PAYMENT_PROVIDER: "local",
    });
  });

  test("empty strings count as unset", () => {
    const env = parseEnv({ MAX_BODY_BYTES: "", DATABASE_URL: "" });
    expect(env.MAX_BODY_BYTES).toBe(1048576);
    expect(env.DATABASE_URL).toBeUndefined();
  });

  test("a bad value fails naming the variable, without echoing the value", () => {
    let error: unknown;
    try {
      parseEnv({ MAX_UPLOAD_BYTES: "ten megabytes", AUTH_SECRET: "short" });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(EnvError);
    const message = (error as EnvError).message;
    expect(message).toContain("MAX_UPLOAD_BYTES");
    expect(message).toContain("AUTH_SECRET");
    expect(message).not.toContain("short");
  });
});

describe(".env.example", () => {
  test("lists every variable the service reads", async () => {
    const { readFileSync } = await import("node:fs");
    const { envSchema } = await import("./env");
    const listed = new Set(
      [...readFileSync(".env.example", "utf8").matchAll(/^#?\s*([A-Z][A-Z0-9_]+)=/gm)].map((m) => m[1]),
    );
    const missing = Object.keys(envSchema.shape).filter((name) => !listed.has(name));
    expect(missing).toEqual([]);
  });
});
