import { z } from "zod";
import { bool, csv, int, isJsonObject, isPostgresUrl, isProductionDeployment, optionalUrl, validTrustProxy } from "@/lib/core/env-values";

/**
 * Every variable the product understands, with its default, and the rules between variables.
 * Each one is also documented in `.env.example` (a test checks); `lib/core/env.ts` reads them.
 */
export const envSchema = z
  .object({
    NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
    /**
     * Public origin of the app, used in links we hand out (result URLs, upload URLs, poll URLs,
     * sign-in e-mails). Unset: the address the server listens on (`defaultAppUrl`: HOSTNAME when it
     * names a host, else localhost, and PORT, which `next start` sets to the port it bound).
     */
    APP_URL: z.url().default("http://localhost:3000"),
    PORT: int(3000),
    /** Interface `npm start` binds (0.0.0.0, every interface, when unset). */
    HOSTNAME: z.string().optional(),
    DATA_DIR: z.string().min(1).default("./data"),

    // Database: PGlite under DATA_DIR when DATABASE_URL is unset.
    DATABASE_URL: z
      .string()
      .optional()
      .refine((v) => v === undefined || isPostgresUrl(v), "must be a PostgreSQL URL: postgres://user:password@host:5432/database"),
    DATABASE_POOL_MAX: int(10),
    DATABASE_PREPARE: bool.default(true),
    /** Loopback port where the embedded PGlite is exposed to other processes; 0 picks a free one. */
    PGLITE_PORT: int(0),

    // HTTP limits.
    MAX_BODY_BYTES: int(1024 * 1024),
    MAX_UPLOAD_BYTES: int(10 * 1024 * 1024),
    /** Comma-separated origins allowed by CORS; `*` allows any origin (the API is bearer-authenticated). */
    CORS_ORIGINS: z.string().default("*"),
    /**
     * Which X-Forwarded-For entries to believe (lib/net/client-address.ts): unset, the socket's
     * peer is the client; a hop count (`1`: one load balancer) or a comma-separated list of the
     * proxies' addresses and CIDR ranges, like Express's `trust proxy`.
     */
    TRUST_PROXY: z
      .string()
      .optional()
      .refine((v) => v === undefined || validTrustProxy(v), "a hop count or a comma-separated list of IP addresses / CIDR ranges"),

    // Identity.
    API_KEY_PREFIX: z
      .string()
      .regex(/^[a-z][a-z0-9]{0,15}$/, "lowercase letters and digits, starting with a letter")
      .default("gw"),
    /** Unset: generated once and kept in DATA_DIR/auth-secret (lib/auth/secret.ts). */
    AUTH_SECRET: z.string().min(16).optional(),
    /**
     * Origin Auth.js builds its links from; defaults to APP_URL. With either set, the Host header is
     * never trusted; with neither, sign-in follows a Host naming this machine (lib/sign-in/origin.ts).
     */
    AUTH_URL: optionalUrl,
    /** Show captured mail at /dev/mailbox even with NODE_ENV=production (never when SMTP_URL is set). */
    DEV_MAILBOX: bool.optional(),
    /** Set by the browser tests (playwright.config.ts); turns on the dev mailbox like DEV_MAILBOX. */
    E2E: bool.optional(),
    ADMIN_EMAILS: csv,
    EMAIL_FROM: z.string().default("Generation Gateway <no-reply@localhost>"),
    SMTP_URL: z.string().optional(),
    AUTH_GITHUB_ID: z.string().optional(),
    AUTH_GITHUB_SECRET: z.string().optional(),
    AUTH_GOOGLE_ID: z.string().optional(),
    AUTH_GOOGLE_SECRET: z.string().optional(),
    AUTH_YANDEX_ID: z.string().optional(),
    AUTH_YANDEX_SECRET: z.string().optional(),

    // Limits (spec "Limits"; tiers from DESIGN.md).
    RATE_LIMIT_USER_GENERATIONS_PER_HOUR: int(100),
    RATE_LIMIT_KEY_PER_HOUR: int(1000),
    RATE_LIMIT_WEBHOOK_IP_PER_MINUTE: int(100),
    /** Generation streams (SSE) one user may hold open at once, per instance. */
    STREAMS_PER_USER_MAX: int(32),
    TIER_THRESHOLDS_RUB: z.string().default("0,1000,10000,100000"),
    TIER_RPM: z.string().default("10,30,60,120"),

    // Money.
    MIN_TOPUP_RUB: int(100),
    PAYMENT_PROVIDER: z.enum(["local", "yookassa"]).default("local"),
    YOOKASSA_SHOP_ID: z.string().optional(),
    YOOKASSA_SECRET_KEY: z.string().optional(),
    YOOKASSA_API_URL: z.url().default("https://api.yookassa.ru/v3"),
    YOOKASSA_TRUSTED_IPS: z
      .string()
      .default("185.71.76.0/27,185.71.77.0/27,77.75.153.0/25,77.75.154.128/25,77.75.156.11/32,77.75.156.35/32,2a02:5180::/32"),
    /** Shared secret the local payment provider puts on its notifications. */
    LOCAL_PAYMENT_SECRET: z.string().optional(),
    /** Lets a production deployment run the local payment provider (a demo): its page grants credits for free. */
    ALLOW_LOCAL_PAYMENTS: bool.default(false),
    /** Per-attempt timeout of calls to YooKassa; 5xx, 429 and network errors are retried this many times. */
    YOOKASSA_TIMEOUT_MS: int(15_000),
    YOOKASSA_MAX_RETRIES: int(2),
    /** Send 54-FZ receipt data («Чеки от ЮKassa») with every payment; the shop must have receipts enabled. */
    YOOKASSA_RECEIPTS: bool.default(false),
    /** Without auto top-up, a low-balance e-mail goes out once when the balance drops below this many rubles. */
    LOW_BALANCE_EMAIL_THRESHOLD_RUB: int(100),

    // Storage.
    /** Unset: `s3` when S3_BUCKET is set, else `local`. `disabled` turns uploads off (503). */
    STORAGE_DRIVER: z.enum(["local", "s3", "disabled"]).optional(),
    S3_ENDPOINT: optionalUrl,
    S3_REGION: z.string().default("us-east-1"),
    S3_BUCKET: z.string().optional(),
    S3_ACCESS_KEY_ID: z.string().optional(),
    S3_SECRET_ACCESS_KEY: z.string().optional(),
    S3_FORCE_PATH_STYLE: bool.default(true),
    S3_PUBLIC_URL: optionalUrl,
    /** Development only: let outbound fetches reach private and loopback addresses. */
    ALLOW_PRIVATE_URLS: bool.default(false),
    /** Lifetime of an upload's signed `provider_url` on S3 (at most 7 days). */
    UPLOAD_URL_TTL_SECONDS: int(86_400),
    /** Re-hosting a provider result: largest file copied, and the deadline per file. */
    REHOST_MAX_BYTES: int(512 * 1024 * 1024),
    REHOST_TIMEOUT_MS: int(120_000),

    // Generation.
    PROVIDER: z.enum(["local", "fal", "replicate"]).default("local"),
    FAL_KEY: z.string().optional(),
    FAL_QUEUE_URL: z.url().default("https://queue.fal.run"),
    FAL_API_URL: z.url().default("https://api.fal.ai/v1"),
    FAL_JWKS_URL: z.url().default("https://rest.alpha.fal.ai/.well-known/jwks.json"),
    RUN_SYNC_TIMEOUT_MS: int(5 * 60 * 1000),
    /** fal's protocol (docs/fal.md): a status poll of an unfinished job waits up to this long for a change (0: answers at once). */
    FAL_STATUS_HOLD_MS: int(10_000),
    LOCAL_PROVIDER_LATENCY_MS: int(0),
    /**
     * The simulator's latency profile: `instant` gives every request LOCAL_PROVIDER_LATENCY_MS;
     * `realistic` draws each one by kind of output like fal's (images 1–4 s, audio 2–10 s, video
     * 20–60 s, embeddings 0.1–0.8 s; docs/providers.md). Prompt markers and LOCAL_PROVIDER_MODELS win.
     */
    LOCAL_PROVIDER_PROFILE: z.enum(["instant", "realistic"]).default("instant"),
    /** Multiplies the realistic profile's latencies (e.g. 0.1 for quick tests). */
    LOCAL_PROVIDER_LATENCY_SCALE: z.coerce.number().nonnegative().max(1000).default(1),
    /** Share of simulator submits failing transiently (429 or 503; a quarter as many first result fetches); unset: 0.02 under realistic, else 0. */
    LOCAL_PROVIDER_ERROR_RATE: z.coerce.number().min(0).max(1).optional(),
    /** Secret the local provider signs its webhooks and media links with (generated under DATA_DIR when unset). */
    LOCAL_PROVIDER_SECRET: z.string().min(16).optional(),
    /** Per-model simulator behaviour, JSON: {"<endpointId>": {"latencyMs": 2000, "fail": "generation"}}. */
    LOCAL_PROVIDER_MODELS: z
      .string()
      .optional()
      .refine((v) => v === undefined || isJsonObject(v), "must be a JSON object keyed by endpoint id"),
    /** Per-attempt timeout of calls to fal, and how many times a retryable failure is retried. */
    FAL_TIMEOUT_MS: int(30_000),
    FAL_MAX_RETRIES: int(3),
    /** Replicate (PROVIDER=replicate; docs/providers.md): the API token, and the API's base (a simulator in tests). */
    REPLICATE_API_TOKEN: z.string().optional(),
    REPLICATE_API_URL: z.url().default("https://api.replicate.com/v1"),
    /** The account's webhook signing secret (`whsec_…`); unset: read from the API (`/webhooks/default/secret`). */
    REPLICATE_WEBHOOK_SECRET: z.string().startsWith("whsec_").optional(),
    /** How long a sync run's create is held open (`Prefer: wait=N`, 1–60 s) before the prediction is polled. */
    REPLICATE_WAIT_SECONDS: z.coerce.number().int().min(1).max(60).default(60),
    /** `Cancel-After` on every prediction: not started by then → aborted (not billed); still running → cancelled. Empty: none. */
    REPLICATE_CANCEL_AFTER: z
      .string()
      .regex(/^(\d+(ms|s|m|h))*$/, "a duration such as 90s, 5m or 2h")
      .default("2h"),
    /** Per-attempt timeout of calls to Replicate, and how many times a retryable failure is retried. */
    REPLICATE_TIMEOUT_MS: int(30_000),
    REPLICATE_MAX_RETRIES: int(4),
    /** Circuit breaker per provider: opens after this many consecutive retryable failures… */
    PROVIDER_BREAKER_FAILURES: z.coerce.number().int().positive().default(5),
    /** …and lets one probe through after this cooldown. */
    PROVIDER_BREAKER_COOLDOWN_MS: int(30_000),
    /** A provider that refused a submit is tried last for this long, while a model has another route (lib/provider/cooldown.ts). */
    PROVIDER_COOLDOWN_MS: int(5_000),
    /**
     * A job that has another route must start within this long at its provider, or it is dropped
     * there unstarted and sent to the next route (Replicate's Cancel-After, fal's X-Fal-Request-Timeout).
     */
    PROVIDER_START_DEADLINE_MS: int(60_000),

    // Jobs: Inngest server mode when keys or INNGEST_DEV are set, else the embedded executor.
    INNGEST_EVENT_KEY: z.string().optional(),
    INNGEST_SIGNING_KEY: z.string().optional(),
    INNGEST_DEV: z.string().optional(),
    INNGEST_BASE_URL: optionalUrl,
    /** Embedded executor: runs it executes at once, and how often it polls for due work. */
    JOBS_CONCURRENCY: z.coerce.number().int().min(1).default(16),
    JOBS_POLL_INTERVAL_MS: z.coerce.number().int().min(10).default(1000),
    /** Finished job runs and events are kept this long; never under Inngest's 24 h dedupe window. */
    JOBS_HISTORY_RETENTION_HOURS: z.coerce.number().int().min(24).default(24),

    // Partner integrations.
    INTEGRATION_SLUG: z
      .string()
      .regex(/^[a-z0-9][a-z0-9-]*$/)
      .default("covers"),
    INTEGRATION_MODEL_ID: z.string().default("fal-ai/flux/dev"),

    // Operations.
    /** On SIGTERM: how long sync runs in flight may finish before their jobs go to the queue (lib/core/shutdown.ts). */
    SHUTDOWN_GRACE_MS: int(25_000),
    /** Turns on GET /metrics (Prometheus text), read with `Authorization: Bearer <token>`; unset: 404. */
    METRICS_TOKEN: z.string().min(16, "at least 16 characters").optional(),
    /** One JSON line per API request, at level info (lib/http/observe.ts). */
    REQUEST_LOG: bool.default(true),
    LOG_LEVEL: z.enum(["debug", "info", "warn", "error", "silent"]).default("info"),
  })
  .superRefine((v, ctx) => {
    if (v.PROVIDER === "fal" && !v.FAL_KEY) {
      ctx.addIssue({ code: "custom", path: ["FAL_KEY"], message: "required when PROVIDER=fal" });
    }
    if (v.PROVIDER === "replicate" && !v.REPLICATE_API_TOKEN) {
      ctx.addIssue({ code: "custom", path: ["REPLICATE_API_TOKEN"], message: "required when PROVIDER=replicate" });
    }
    // Settings that cannot work stop start-up here instead of switching a part off in silence.
    const required = (name: keyof typeof v, when: string) =>
      ctx.addIssue({ code: "custom", path: [name], message: `required when ${when}` });
    if (v.STORAGE_DRIVER === "s3" && !v.S3_BUCKET) required("S3_BUCKET", "STORAGE_DRIVER=s3");
    if (v.S3_ACCESS_KEY_ID && !v.S3_SECRET_ACCESS_KEY) required("S3_SECRET_ACCESS_KEY", "S3_ACCESS_KEY_ID is set");
    if (v.S3_SECRET_ACCESS_KEY && !v.S3_ACCESS_KEY_ID) required("S3_ACCESS_KEY_ID", "S3_SECRET_ACCESS_KEY is set");
    if (v.PAYMENT_PROVIDER === "yookassa") {
      if (!v.YOOKASSA_SHOP_ID) required("YOOKASSA_SHOP_ID", "PAYMENT_PROVIDER=yookassa");
      if (!v.YOOKASSA_SECRET_KEY) required("YOOKASSA_SECRET_KEY", "PAYMENT_PROVIDER=yookassa");
    }
    if (v.PAYMENT_PROVIDER === "local" && !v.ALLOW_LOCAL_PAYMENTS && isProductionDeployment(v)) {
      ctx.addIssue({
        code: "custom",
        path: ["ALLOW_LOCAL_PAYMENTS"],
        message:
          "PAYMENT_PROVIDER=local lets anyone signed in grant themselves credits; a production deployment (DATABASE_URL set, " +
          "or NODE_ENV=production with a non-loopback APP_URL) needs PAYMENT_PROVIDER=yookassa, or ALLOW_LOCAL_PAYMENTS=true for a demo",
      });
    }
  });

export type Env = z.infer<typeof envSchema>;
