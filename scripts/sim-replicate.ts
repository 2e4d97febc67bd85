/**
 * `npm run sim:replicate -- [--port 4020] [--host 127.0.0.1] [--token test-token] [--profile instant|realistic]
 *                           [--latency-scale 1] [--error-rate 0.02] [--latency-ms 0] [--start-delay-ms 0] [--seed N] [--public-url URL] [--quiet]`
 *
 * The local simulator behind Replicate's prediction API, on loopback: creates (official models
 * and versions, `Prefer: wait`, `Cancel-After`), reads, cancels, signed webhooks, the webhook
 * secret and the media files (tools/replicate-sim, docs/providers.md). Run the app against it
 * with the variables it prints. Defaults come from the same variables as the built-in simulator
 * (LOCAL_PROVIDER_PROFILE, …_LATENCY_SCALE, …_ERROR_RATE, …_LATENCY_MS, …_MODELS) and
 * REPLICATE_API_TOKEN; the port from REPLICATE_SIM_PORT.
 */
import { ReplicateSimulator } from "@/tools/replicate-sim/simulator";
import { simulatorOptions } from "./sim-cli";

async function main() {
  const o = simulatorOptions({
    name: "sim:replicate",
    credential: { flag: "token", envVar: "REPLICATE_API_TOKEN", fallback: "test-token" },
    port: { envVar: "REPLICATE_SIM_PORT", fallback: 4020 },
  });
  const token = o.credential;
  const log = o.quiet ? undefined : (line: string) => process.stdout.write(`${new Date().toISOString()} ${line}\n`);
  const sim = new ReplicateSimulator({ token, settings: o.settings, random: o.random, log, startDelayMs: o.startDelayMs });
  sim.record = false;
  try {
    await sim.listen({ port: o.port, host: o.host, publicUrl: o.publicUrl });
  } catch (err) {
    o.fail(`cannot listen on ${o.host}:${o.port}: ${(err as Error).message}`);
  }
  const s = o.settings;
  process.stdout.write(
    [
      `Replicate simulator on ${sim.base} (profile ${s.profile}, ${s.profile === "realistic" ? `latency scale ${s.latencyScale}` : `latency ${s.latencyMs} ms`}, error rate ${s.errorRate}${o.startDelayMs ? `, start delay ${o.startDelayMs} ms` : ""})`,
      "Run the app against it with:",
      `  PROVIDER=replicate REPLICATE_API_TOKEN=${token} REPLICATE_API_URL=${sim.apiUrl} REPLICATE_WEBHOOK_SECRET=${sim.webhookSecret} ALLOW_PRIVATE_URLS=true`,
      "(catalog models run on Replicate under their alias: owner/name or owner/name:version)",
      "",
    ].join("\n"),
  );
  const stop = () => void sim.close().then(() => process.exit(0));
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

void main();
