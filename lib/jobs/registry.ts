import { brand } from "@/lib/brand";
import { Cron } from "croner";
import { z } from "zod";
import { assertExpression } from "./expressions";
import { parseDurationMs } from "./time";

/**
 * The functions the embedded executor runs, read from the configuration the app reports in an
 * in-band sync, exactly what an Inngest server would receive. Anything it cannot honour is refused
 * here, loudly, instead of being silently ignored.
 */

/** Options only an Inngest server implements. */
const SERVER_ONLY = ["throttle", "rateLimit", "debounce", "batchEvents", "priority", "singleton", "timeouts"] as const;
/** Keys of a function configuration the executor understands. */
const KNOWN = new Set(["id", "name", "triggers", "steps", "cancel", "concurrency", "idempotency", ...SERVER_ONLY]);

const concurrencyOption = z.object({
  limit: z.number().int().nonnegative(),
  key: z.string().optional(),
  scope: z.enum(["fn", "env", "account"]).optional(),
});

const configSchema = z
  .object({
    id: z.string().min(1),
    name: z.string().optional(),
    triggers: z
      .array(
        z.union([
          z.object({ event: z.string().min(1), expression: z.string().optional() }).loose(),
          z.object({ cron: z.string().min(1) }).loose(),
        ]),
      )
      .default([]),
    steps: z.record(
      z.string(),
      z.object({ retries: z.object({ attempts: z.number().int().nonnegative().optional() }).optional() }).loose(),
    ),
    cancel: z.array(z.object({ event: z.string().min(1), if: z.string().optional(), timeout: z.string().optional() })).optional(),
    concurrency: z.union([z.number().int().nonnegative(), concurrencyOption, z.array(concurrencyOption)]).optional(),
    idempotency: z.string().optional(),
  })
  .loose();

export type EventTrigger = { event: string; expression?: string };
export type Cancellation = { event: string; expression?: string; timeoutMs?: number };
export type ConcurrencyRule = { limit: number; key?: string; scope: "fn" | "env" | "account" };

export type FunctionDef = {
  id: string;
  name?: string;
  triggers: EventTrigger[];
  crons: string[];
  cancel: Cancellation[];
  concurrency: ConcurrencyRule[];
  idempotency?: string;
  /** Attempts per step (and for the function body): the configured retries + 1. */
  maxAttempts: number;
};

export class UnsupportedFunctionError extends Error {
  constructor(public readonly problems: string[]) {
    super(
      `The embedded job executor cannot run these functions as configured:\n${problems.map((p) => `  - ${p}`).join("\n")}\n` +
        "Configure an Inngest server (INNGEST_EVENT_KEY + INNGEST_SIGNING_KEY, or INNGEST_DEV) to use them.",
    );
    this.name = "UnsupportedFunctionError";
  }
}

const unsupportedFunctionErrors = brand<UnsupportedFunctionError>("unsupported-function-error");
unsupportedFunctionErrors.mark(UnsupportedFunctionError);
export const isUnsupportedFunctionError = unsupportedFunctionErrors.is;

/** The SDK's default when `retries` is not set: 3 retries, 4 attempts. */
const DEFAULT_RETRIES = 3;

/** `TZ=Europe/Moscow 0 * * * *` → the expression and its time zone. */
export function parseCron(schedule: string): { pattern: string; timezone?: string } {
  const match = /^(?:CRON_)?TZ=(\S+)\s+(.+)$/.exec(schedule.trim());
  return match ? { pattern: match[2]!, timezone: match[1]! } : { pattern: schedule.trim() };
}

/** The next time a cron schedule fires strictly after `after`. */
export function nextCronTime(schedule: string, after: number): number {
  const { pattern, timezone } = parseCron(schedule);
  const next = new Cron(pattern, { timezone, paused: true }).nextRun(new Date(after));
  if (!next) throw new Error(`cron ${JSON.stringify(schedule)} never fires again`);
  return next.getTime();
}

function toDef(raw: unknown, problems: string[]): FunctionDef | undefined {
  const parsed = configSchema.safeParse(raw);
  const label = (raw as { id?: unknown })?.id ?? "(unnamed)";
  if (!parsed.success) {
    problems.push(`${String(label)}: unreadable configuration (${parsed.error.issues.map((i) => i.message).join("; ")})`);
    return undefined;
  }
  const cfg = parsed.data;
  const where = cfg.id;
  const before = problems.length;
  for (const key of Object.keys(cfg)) {
    if ((SERVER_ONLY as readonly string[]).includes(key) && cfg[key] !== undefined && cfg[key] !== null) {
      problems.push(`${where}: \`${key}\` needs an Inngest server`);
    } else if (!KNOWN.has(key)) {
      problems.push(`${where}: unknown option \`${key}\``);
    }
  }
  const triggers: EventTrigger[] = [];
  const crons: string[] = [];
  for (const t of cfg.triggers) {
    if ("cron" in t && typeof t.cron === "string") {
      if ("jitter" in t && t.jitter) problems.push(`${where}: cron \`jitter\` needs an Inngest server`);
      try {
        nextCronTime(t.cron, Date.now());
        crons.push(t.cron);
      } catch (err) {
        problems.push(`${where}: bad cron ${JSON.stringify(t.cron)} (${(err as Error).message})`);
      }
    } else if ("event" in t && typeof t.event === "string") {
      const expression = "expression" in t && typeof t.expression === "string" && t.expression ? t.expression : undefined;
      triggers.push({ event: t.event, expression });
    }
  }
  const cancel: Cancellation[] = (cfg.cancel ?? []).map((c) => {
    let timeoutMs: number | undefined;
    if (c.timeout) {
      try {
        timeoutMs = parseDurationMs(c.timeout);
      } catch {
        problems.push(`${where}: cancelOn timeout ${JSON.stringify(c.timeout)} is not a duration`);
      }
    }
    return { event: c.event, expression: c.if || undefined, timeoutMs };
  });
  const rawConcurrency = cfg.concurrency;
  const concurrency: ConcurrencyRule[] = (
    rawConcurrency === undefined ? [] : typeof rawConcurrency === "number" ? [{ limit: rawConcurrency }] : [rawConcurrency].flat()
  )
    // A limit of 0 means "no limit" in Inngest's configuration.
    .filter((c) => c.limit > 0)
    .map((c) => ({ limit: c.limit, key: c.key || undefined, scope: c.scope ?? "fn" }));
  if (concurrency.length > 2) problems.push(`${where}: at most two concurrency limits`);
  const expressions = [
    ...triggers.map((t) => t.expression),
    ...cancel.map((c) => c.expression),
    ...concurrency.map((c) => c.key),
    cfg.idempotency,
  ];
  for (const expression of expressions) {
    if (!expression) continue;
    try {
      assertExpression(expression);
    } catch (err) {
      problems.push(`${where}: expression ${JSON.stringify(expression)} does not parse (${(err as Error).message.split("\n")[0]})`);
    }
  }
  if (problems.length > before) return undefined;
  const retries = cfg.steps["step"]?.retries?.attempts ?? DEFAULT_RETRIES;
  return {
    id: cfg.id,
    name: cfg.name,
    triggers,
    crons,
    cancel,
    concurrency,
    idempotency: cfg.idempotency || undefined,
    maxAttempts: retries + 1,
  };
}

function eventMatches(pattern: string, name: string): boolean {
  // Inngest allows a trailing wildcard, e.g. `app/user.*`.
  return pattern.endsWith("*") ? name.startsWith(pattern.slice(0, -1)) : pattern === name;
}

export class Registry {
  readonly functions = new Map<string, FunctionDef>();

  constructor(defs: FunctionDef[]) {
    for (const def of defs) this.functions.set(def.id, def);
  }

  get(id: string): FunctionDef | undefined {
    return this.functions.get(id);
  }

  /** Functions an event of this name triggers, with the trigger that matched. */
  triggeredBy(name: string): { fn: FunctionDef; trigger: EventTrigger }[] {
    const out: { fn: FunctionDef; trigger: EventTrigger }[] = [];
    for (const fn of this.functions.values()) {
      for (const trigger of fn.triggers) if (eventMatches(trigger.event, name)) out.push({ fn, trigger });
    }
    return out;
  }

  /** Functions whose runs an event of this name may cancel. */
  cancelledBy(name: string): { fn: FunctionDef; cancel: Cancellation }[] {
    const out: { fn: FunctionDef; cancel: Cancellation }[] = [];
    for (const fn of this.functions.values()) {
      for (const cancel of fn.cancel) if (eventMatches(cancel.event, name)) out.push({ fn, cancel });
    }
    return out;
  }

  /** Whether any function triggers on or cancels by this event name. */
  listensTo(name: string): boolean {
    return this.triggeredBy(name).length > 0 || this.cancelledBy(name).length > 0;
  }

  crons(): { functionId: string; schedule: string }[] {
    return [...this.functions.values()].flatMap((fn) => fn.crons.map((schedule) => ({ functionId: fn.id, schedule })));
  }
}

/** Builds the registry from an in-band sync's `functions`, refusing what the executor cannot honour. */
export function buildRegistry(configs: unknown[]): Registry {
  const problems: string[] = [];
  const defs = configs.map((c) => toDef(c, problems)).filter((d): d is FunctionDef => !!d);
  if (problems.length) throw new UnsupportedFunctionError(problems);
  return new Registry(defs);
}
