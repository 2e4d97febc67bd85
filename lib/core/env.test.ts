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
    const listed = new Set([...readFileSync(".env.example", "utf8").matchAll(/^#?\s*([A-Z][A-Z0-9_]+)=/gm)].map((m) => m[1]));
    const missing = Object.keys(envSchema.shape).filter((name) => !listed.has(name));
    expect(missing).toEqual([]);
  });
});

describe("APP_URL", () => {
  test("unset, it is the listening address: PORT (which `next start` sets to the port it bound), on localhost", () => {
    expect(parseEnv({}).APP_URL).toBe("http://localhost:3000");
    expect(parseEnv({ PORT: "3917" }).APP_URL).toBe("http://localhost:3917");
    expect(parseEnv({ PORT: "3917", HOSTNAME: "0.0.0.0" }).APP_URL).toBe("http://localhost:3917");
    expect(parseEnv({ PORT: "3917", HOSTNAME: "::" }).APP_URL).toBe("http://localhost:3917");
  });

  test("unset, a HOSTNAME that names a host is the link's host", () => {
    expect(parseEnv({ PORT: "8080", HOSTNAME: "gateway.internal" }).APP_URL).toBe("http://gateway.internal:8080");
    expect(parseEnv({ HOSTNAME: "127.0.0.1" }).APP_URL).toBe("http://127.0.0.1:3000");
    expect(parseEnv({ HOSTNAME: "::1", PORT: "4000" }).APP_URL).toBe("http://[::1]:4000");
  });

  test("set, it wins over the listening address", () => {
    expect(parseEnv({ APP_URL: "https://gw.example.com", PORT: "3917" }).APP_URL).toBe("https://gw.example.com");
  });
});

describe("settings that cannot work stop start-up, naming the variable", () => {
  // ALLOW_LOCAL_PAYMENTS: a DATABASE_URL makes a production deployment, which refuses local payments.
  const problems = (vars: Record<string, string>) => {
    try {
      parseEnv({ ALLOW_LOCAL_PAYMENTS: "true", ...vars });
    } catch (err) {
      return (err as EnvError).problems;
    }
    return [];
  };

  test("DATABASE_URL that is not a PostgreSQL URL (the value is not echoed)", () => {
    expect(problems({ DATABASE_URL: "notaurl" })).toEqual([
      "DATABASE_URL: must be a PostgreSQL URL: postgres://user:password@host:5432/database",
    ]);
    expect(problems({ DATABASE_URL: "mysql://u:p@db:3306/gw" })).toHaveLength(1);
    expect(problems({ DATABASE_URL: "postgres://u:p@db:bad port/gw" })).toHaveLength(1);
  });

  test("every form postgres-js connects with passes", () => {
    for (const url of [
      "postgres://postgres@127.0.0.1:5432/test",
      "postgresql://user:p%40ss@db.internal/gateway?sslmode=require",
      "postgres://user:secret@h1:5432,h2:5433/gateway",
      "postgres:///gateway?host=/var/run/postgresql",
    ]) {
      expect(problems({ DATABASE_URL: url }), url).toEqual([]);
    }
  });

  test("STORAGE_DRIVER=s3 without S3_BUCKET, and half a pair of S3 keys", () => {
    expect(problems({ STORAGE_DRIVER: "s3" })).toEqual(["S3_BUCKET: required when STORAGE_DRIVER=s3"]);
    expect(problems({ S3_BUCKET: "b", S3_ACCESS_KEY_ID: "AKIA" })).toEqual(["S3_SECRET_ACCESS_KEY: required when S3_ACCESS_KEY_ID is set"]);
    expect(problems({ S3_BUCKET: "b", S3_SECRET_ACCESS_KEY: "s" })).toEqual([
      "S3_ACCESS_KEY_ID: required when S3_SECRET_ACCESS_KEY is set",
    ]);
    expect(problems({ STORAGE_DRIVER: "s3", S3_BUCKET: "b", S3_ACCESS_KEY_ID: "AKIA", S3_SECRET_ACCESS_KEY: "s" })).toEqual([]);
  });

  test("PAYMENT_PROVIDER=yookassa without its shop id and secret key", () => {
    expect(problems({ PAYMENT_PROVIDER: "yookassa" })).toEqual([
      "YOOKASSA_SHOP_ID: required when PAYMENT_PROVIDER=yookassa",
      "YOOKASSA_SECRET_KEY: required when PAYMENT_PROVIDER=yookassa",
    ]);
  });
});
