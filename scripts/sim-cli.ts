import { parseArgs } from "node:util";
import { z } from "zod";
import { env } from "@/lib/core/env";
import { seededRandom, simulatorSettings, type SimulatorSettings } from "@/simulators/local-provider/latency-profile";

/**
 * The command line both protocol simulators take (`npm run sim:fal`, `npm run sim:replicate`):
 * where to listen, the credential clients must present, and the built-in simulator's latency
 * settings, each flag defaulting to the variable the app's own simulator reads.
 */
export type SimulatorCli = {
  /** `sim:fal`: the name messages start with. */
  name: string;
  /** The credential's flag, the variable it defaults to, and its fallback (`key`, FAL_KEY, `test:secret`). */
  credential: { flag: string; envVar: string; fallback: string };
  port: { envVar: string; fallback: number };
};

export function failWith(name: string) {
  return (message: string): never => {
    process.stderr.write(`${name}: ${message}\n`);
    process.exit(2);
  };
}

export function simulatorOptions(cli: SimulatorCli) {
  const fail: (message: string) => never = failWith(cli.name);
  const { values } = parseArgs({
    options: {
      port: { type: "string" },
      host: { type: "string", default: "127.0.0.1" },
      [cli.credential.flag]: { type: "string" },
      profile: { type: "string" },
      "latency-scale": { type: "string" },
      "error-rate": { type: "string" },
      "latency-ms": { type: "string" },
      "start-delay-ms": { type: "string" },
      seed: { type: "string" },
      "public-url": { type: "string" },
      quiet: { type: "boolean", default: false },
    },
    strict: true,
  });
  const text = (name: string) => values[name] as string | undefined;
  const number = (name: string, raw: string | undefined, schema: z.ZodNumber) => {
    if (raw === undefined) return undefined;
    const parsed = schema.safeParse(Number(raw));
    if (!parsed.success || raw.trim() === "") fail(`--${name} must be a number (${parsed.error?.issues[0]?.message ?? "empty"})`);
    return parsed.data;
  };
  let base: SimulatorSettings;
  try {
    base = simulatorSettings(env());
  } catch (err) {
    fail(String((err as Error).message));
  }
  const profile = text("profile") ?? base.profile;
  if (profile !== "instant" && profile !== "realistic") fail("--profile must be instant or realistic");
  const errorRate = number("error-rate", text("error-rate"), z.number().min(0).max(1));
  const settings: SimulatorSettings = {
    profile,
    latencyMs: number("latency-ms", text("latency-ms"), z.number().int().min(0)) ?? base.latencyMs,
    latencyScale: number("latency-scale", text("latency-scale"), z.number().min(0).max(1000)) ?? base.latencyScale,
    // Choosing the realistic profile here brings its default error rate, as the variable does.
    errorRate: errorRate ?? (text("profile") === "realistic" && env().LOCAL_PROVIDER_ERROR_RATE === undefined ? 0.02 : base.errorRate),
  };
  const seed = number("seed", text("seed"), z.number().int());
  return {
    port: number("port", text("port") ?? process.env[cli.port.envVar], z.number().int().min(0).max(65535)) ?? cli.port.fallback,
    host: text("host")!,
    credential: text(cli.credential.flag) ?? process.env[cli.credential.envVar] ?? cli.credential.fallback,
    publicUrl: text("public-url"),
    quiet: values.quiet === true,
    settings,
    /** Extra queue time before every job starts (to watch start deadlines pass); 0 by default. */
    startDelayMs: number("start-delay-ms", text("start-delay-ms"), z.number().int().min(0)) ?? 0,
    random: seed === undefined ? undefined : seededRandom(seed),
    fail,
  };
}
