/**
 * `npm run sim:replicate -- [--port 4020] [--host 127.0.0.1] [--token test-token] [--profile instant|realistic]
 *                           [--latency-scale 1] [--error-rate 0.02] [--latency-ms 0] [--seed N] [--public-url URL] [--quiet]`
 *
 * The local simulator behind Replicate's prediction API, on loopback: creates (official models
 * and versions, `Prefer: wait`, `Cancel-After`), reads, cancels, signed webhooks, the webhook
 * secret and the media files (tools/replicate-sim, docs/providers.md). Run the app against it
 * with the variables it prints. Defaults come from the same variables as the built-in simulator
 * (LOCAL_PROVIDER_PROFILE, …_LATENCY_SCALE, …_ERROR_RATE, …_LATENCY_MS, …_MODELS) and
 * REPLICATE_API_TOKEN; the port from REPLICATE_SIM_PORT.
 */
import { parseArgs } from "node:util";
import { z } from "zod";
import { env } from "@/lib/core/env";
import { ReplicateSimulator } from "@/tools/replicate-sim/simulator";
import { seededRandom, simulatorSettings, type SimulatorSettings } from "@/simulators/local-provider/latency-profile";

function fail(message: string): never {
  process.stderr.write(`sim:replicate: ${message}\n`);
  process.exit(2);
}

function options() {
  const { values } = parseArgs({
    options: {
      port: { type: "string" },
      host: { type: "string", default: "127.0.0.1" },
      token: { type: "string" },
      profile: { type: "string" },
      "latency-scale": { type: "string" },
      "error-rate": { type: "string" },
      "latency-ms": { type: "string" },
      seed: { type: "string" },
      "public-url": { type: "string" },
      quiet: { type: "boolean", default: false },
    },
    strict: true,
  });
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
  const profile = values.profile ?? base.profile;
  if (profile !== "instant" && profile !== "realistic") fail("--profile must be instant or realistic");
  const errorRate = number("error-rate", values["error-rate"], z.number().min(0).max(1));
  const settings: SimulatorSettings = {
    profile,
    latencyMs: number("latency-ms", values["latency-ms"], z.number().int().min(0)) ?? base.latencyMs,
    latencyScale: number("latency-scale", values["latency-scale"], z.number().min(0).max(1000)) ?? base.latencyScale,
    // Choosing the realistic profile here brings its default error rate, as the variable does.
    errorRate: errorRate ?? (values.profile === "realistic" && env().LOCAL_PROVIDER_ERROR_RATE === undefined ? 0.02 : base.errorRate),
  };
  const seed = number("seed", values.seed, z.number().int());
  return {
    port: number("port", values.port ?? process.env.REPLICATE_SIM_PORT, z.number().int().min(0).max(65535)) ?? 4020,
    host: values.host,
    token: values.token ?? process.env.REPLICATE_API_TOKEN ?? "test-token",
    publicUrl: values["public-url"],
    quiet: values.quiet,
    settings,
    random: seed === undefined ? undefined : seededRandom(seed),
  };
}

async function main() {
  const o = options();
  const log = o.quiet ? undefined : (line: string) => process.stdout.write(`${new Date().toISOString()} ${line}\n`);
  const sim = new ReplicateSimulator({ token: o.token, settings: o.settings, random: o.random, log });
  sim.record = false;
  try {
    await sim.listen({ port: o.port, host: o.host, publicUrl: o.publicUrl });
  } catch (err) {
    fail(`cannot listen on ${o.host}:${o.port}: ${(err as Error).message}`);
  }
  const s = o.settings;
  process.stdout.write(
    [
      `Replicate simulator on ${sim.base} (profile ${s.profile}, ${s.profile === "realistic" ? `latency scale ${s.latencyScale}` : `latency ${s.latencyMs} ms`}, error rate ${s.errorRate})`,
      "Run the app against it with:",
      `  PROVIDER=replicate REPLICATE_API_TOKEN=${o.token} REPLICATE_API_URL=${sim.apiUrl} REPLICATE_WEBHOOK_SECRET=${sim.webhookSecret} ALLOW_PRIVATE_URLS=true`,
      "(catalog models run on Replicate under their alias: owner/name or owner/name:version)",
      "",
    ].join("\n"),
  );
  const stop = () => void sim.close().then(() => process.exit(0));
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

void main();
