import { brand } from "@/lib/core/brand";
import { Cron } from "croner";
import { z } from "zod";
import { parseKey, parseTriggerIf, parseWaitIf, type Equality } from "./expression";
import { CANCEL_OP_PREFIX } from "./store/shared";

/**
 * The functions the embedded executor runs, read from the configuration the app reports in an
 * in-band sync, exactly what an Inngest server would receive. Anything it does not reproduce is
 * refused here, naming the function and the feature, instead of being silently ignored.
 */

/** Sync keys of features the executor does not reproduce, by the name a function's options use. */
const UNSUPPORTED: Record<string, string> = {
  idempotency: "idempotency",
  batchEvents: "batchEvents",
  debounce: "debounce",
  throttle: "throttle",
  rateLimit: "rateLimit",
  priority: "priority",
  singleton: "singleton",
  timeouts: "timeouts",
};
const KNOWN = new Set(["id", "name", "triggers", "steps", "concurrency", "cancel"]);

const concurrencyOption = z.object({ limit: z.number().int().nonnegative(), key: z.string().optional(), scope: z.string().optional() });

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
    concurrency: z.union([z.number().int().nonnegative(), concurrencyOption, z.array(concurrencyOption)]).optional(),
    // What `cancelOn` compiles to: `match: "data.x"` becomes `if: "event.data.x == async.data.x"`.
    cancel: z.array(z.object({ event: z.string().min(1), if: z.string().optional(), timeout: z.string().optional() }).loose()).optional(),
  })
  .loose();

export type EventTrigger = { event: string; condition?: Equality };
/**
 * A `cancelOn` rule: an event of this name (whose `if` holds against the run's trigger, when it
 * has one) cancels the run. Each run records it as a wait-like op under `stepId`
 * (`cancel:<function>:<n>`, which no SDK step id can be: those are hashes), so an incoming event
 * finds the runs it cancels, and only those, through the waits' index (store/job-events.ts).
 */
export type CancelRule = { event: string; expression: string | null; condition?: Equality; stepId: string };

/** A concurrency limit of the function's own runs, per value of `key` (a path into the event) if set. */
export type ConcurrencyRule = { limit: number; key?: string; keyPath?: string[] };

export type FunctionDef = {
  id: string;
  name?: string;
  triggers: EventTrigger[];
  crons: string[];
  concurrency?: ConcurrencyRule;
  cancelOn: CancelRule[];
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

const present = (value: unknown) => value !== undefined && value !== null && !(Array.isArray(value) && !value.length);

function toDef(raw: unknown, problems: string[]): FunctionDef | undefined {
  const parsed = configSchema.safeParse(raw);
  const label = (raw as { id?: unknown })?.id ?? "(unnamed)";
  if (!parsed.success) {
    problems.push(`${String(label)}: unreadable configuration (${parsed.error.issues.map((i) => i.message).join("; ")})`);
    return undefined;
  }
  const cfg = parsed.data;
  const before = problems.length;
  const refuse = (what: string) => problems.push(`${cfg.id}: ${what}`);
  for (const [key, value] of Object.entries(cfg)) {
    if (UNSUPPORTED[key]) {
      if (present(value)) refuse(`\`${UNSUPPORTED[key]}\` is not supported by the embedded executor (it needs an Inngest server)`);
    } else if (!KNOWN.has(key)) refuse(`unknown option \`${key}\``);
  }
  const triggers: EventTrigger[] = [];
  const crons: string[] = [];
  for (const t of cfg.triggers) {
    if ("cron" in t && typeof t.cron === "string") {
      if ("jitter" in t && t.jitter) refuse("cron `jitter` is not supported by the embedded executor");
      try {
        nextCronTime(t.cron, Date.now());
        crons.push(t.cron);
      } catch (err) {
        refuse(`bad cron ${JSON.stringify(t.cron)} (${(err as Error).message})`);
      }
    } else if ("event" in t && typeof t.event === "string") {
      if (t.event.includes("*")) refuse(`the wildcard trigger ${JSON.stringify(t.event)} is not supported by the embedded executor`);
      const expression = "expression" in t && typeof t.expression === "string" && t.expression ? t.expression : undefined;
      const condition = expression ? parseTriggerIf(expression) : undefined;
      if (expression && !condition) {
        refuse(`the trigger \`if\` ${JSON.stringify(expression)} is not supported (only \`event.<path> == '<literal>'\`)`);
      }
      triggers.push({ event: t.event, condition });
    }
  }
  const rules = (
    cfg.concurrency === undefined ? [] : typeof cfg.concurrency === "number" ? [{ limit: cfg.concurrency }] : [cfg.concurrency].flat()
  )
    // A limit of 0 means "no limit" in Inngest's configuration.
    .filter((c) => c.limit > 0);
  if (rules.length > 1) refuse("more than one concurrency limit is not supported by the embedded executor");
  const rule = rules[0] as z.infer<typeof concurrencyOption> | undefined;
  if (rule?.scope && rule.scope !== "fn") refuse(`concurrency scope \`${rule.scope}\` is not supported (only the function's own runs)`);
  const keyPath = rule?.key ? parseKey(rule.key) : undefined;
  if (rule?.key && !keyPath) refuse(`the concurrency key ${JSON.stringify(rule.key)} is not supported (only \`event.<path>\`)`);
  const cancelOn: CancelRule[] = [];
  for (const [i, c] of (cfg.cancel ?? []).entries()) {
    if (c.timeout) refuse("cancelOn `timeout` is not supported by the embedded executor");
    if (c.event.includes("*") || c.event.startsWith("inngest/"))
      refuse(`cancelOn ${JSON.stringify(c.event)} is not supported (only an app event by name)`);
    const expression = c.if || null;
    const condition = expression ? parseWaitIf(expression) : undefined;
    if (expression && !condition) {
      refuse(
        `the cancelOn \`if\` ${JSON.stringify(expression)} is not supported (only \`event.<path> == async.<path>\`, what \`match\` compiles to, or \`async.<path> == "<literal>"\`)`,
      );
    }
    cancelOn.push({ event: c.event, expression, condition, stepId: `${CANCEL_OP_PREFIX}${cfg.id}:${i}` });
  }
  if (problems.length > before) return undefined;
  const retries = cfg.steps["step"]?.retries?.attempts ?? DEFAULT_RETRIES;
  return {
    id: cfg.id,
    name: cfg.name,
    triggers,
    crons,
    concurrency: rule && { limit: rule.limit, key: rule.key || undefined, keyPath },
    cancelOn,
    maxAttempts: retries + 1,
  };
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
      for (const trigger of fn.triggers) if (trigger.event === name) out.push({ fn, trigger });
    }
    return out;
  }

  /** Functions whose runs an event of this name may cancel, with the rule. */
  cancelledBy(name: string): { fn: FunctionDef; rule: CancelRule }[] {
    const out: { fn: FunctionDef; rule: CancelRule }[] = [];
    for (const fn of this.functions.values()) {
      for (const rule of fn.cancelOn) if (rule.event === name) out.push({ fn, rule });
    }
    return out;
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
