/**
 * `npm run sim:fal -- [--port 4010] [--host 127.0.0.1] [--key test:secret] [--profile instant|realistic]
 *                     [--latency-scale 1] [--error-rate 0.02] [--latency-ms 0] [--start-delay-ms 0] [--seed N] [--public-url URL] [--quiet]`
 *
 * The local simulator behind fal's wire format, on loopback: the queue API, the Platform API's
 * model list and prices, the webhook JWKS, signed `fal_webhook` deliveries and the media files
 * (tools/fal-sim, docs/providers.md). Run the app against it with the variables it prints.
 * It needs nothing from the app: webhook URLs come with each submit. Defaults come from the same
 * variables as the built-in simulator (LOCAL_PROVIDER_PROFILE, …_LATENCY_SCALE, …_ERROR_RATE,
 * …_LATENCY_MS, …_MODELS) and FAL_KEY; the port from FAL_SIM_PORT.
 */
import { FalSimulator } from "@/tools/fal-sim/simulator";
import { simulatorOptions } from "./sim-cli";

async function main() {
  const o = simulatorOptions({
    name: "sim:fal",
    credential: { flag: "key", envVar: "FAL_KEY", fallback: "test:secret" },
    port: { envVar: "FAL_SIM_PORT", fallback: 4010 },
  });
  const key = o.credential;
  const log = o.quiet ? undefined : (line: string) => process.stdout.write(`${new Date().toISOString()} ${line}\n`);
  const sim = new FalSimulator({ key, settings: o.settings, random: o.random, log, startDelayMs: o.startDelayMs });
  sim.record = false;
  try {
    await sim.listen({ port: o.port, host: o.host, publicUrl: o.publicUrl });
  } catch (err) {
    o.fail(`cannot listen on ${o.host}:${o.port}: ${(err as Error).message}`);
  }
  const s = o.settings;
  process.stdout.write(
    [
      `fal simulator on ${sim.base} (profile ${s.profile}, ${s.profile === "realistic" ? `latency scale ${s.latencyScale}` : `latency ${s.latencyMs} ms`}, error rate ${s.errorRate}${o.startDelayMs ? `, start delay ${o.startDelayMs} ms` : ""})`,
      "Run the app against it with:",
      `  PROVIDER=fal FAL_KEY=${key} FAL_QUEUE_URL=${sim.queueUrl} FAL_API_URL=${sim.apiUrl} FAL_JWKS_URL=${sim.jwksUrl} ALLOW_PRIVATE_URLS=true`,
      "",
    ].join("\n"),
  );
  const stop = () => void sim.close().then(() => process.exit(0));
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

void main();
