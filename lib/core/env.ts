import { brand } from "@/lib/core/brand";
import { envSchema, type Env } from "@/lib/core/env-schema";

/**
 * The one place configuration is read. Every variable the product understands is declared in
 * `lib/core/env-schema.ts`, with its default, and documented in `.env.example`. A bad value stops
 * start-up with a message that names the variable (see `parseEnv`).
 */
export { envSchema, type Env };

export class EnvError extends Error {
  constructor(public readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
    this.name = "EnvError";
  }
}

const envErrors = brand<EnvError>("env-error");
envErrors.mark(EnvError);
export const isEnvError = envErrors.is;

/** Parses a set of variables; empty strings count as unset so `.env` templates stay harmless. */
export function parseEnv(source: Record<string, string | undefined>): Env {
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v !== ""));
  cleaned.APP_URL ??= defaultAppUrl(cleaned);
  const result = envSchema.safeParse(cleaned);
  if (!result.success) {
    throw new EnvError(
      // Values are never echoed: a bad value may be a secret.
      result.error.issues.map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`),
    );
  }
  return result.data;
}

/** Addresses that mean "every interface": a link needs a host a client can reach. */
const WILDCARD_HOSTS = new Set(["0.0.0.0", "::", "[::]", "::0"]);

/**
 * APP_URL when it is unset: where this server listens. `next start` (and `npm start`, which
 * passes HOSTNAME as `-H`) sets PORT to the port it bound before the app reads its settings, so
 * `-p 3917` and `PORT=3917` both give http://localhost:3917.
 */
export function defaultAppUrl(source: Record<string, string | undefined>): string {
  const port = /^\d{1,5}$/.test(source.PORT ?? "") ? Number(source.PORT) : 3000;
  const named = source.HOSTNAME?.trim();
  const host = !named || WILDCARD_HOSTS.has(named) ? "localhost" : named.includes(":") && !named.startsWith("[") ? `[${named}]` : named;
  return `http://${host}:${port}`;
}

let cached: Env | undefined;

/** The process configuration, read once. Tests may call `resetEnv()` after changing process.env. */
export function env(): Env {
  cached ??= parseEnv(process.env);
  return cached;
}

export function resetEnv(): void {
  cached = undefined;
}
