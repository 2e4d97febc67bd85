import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { httpStatusOf } from "@/lib/http/errors";
import { EnvError, parseEnv, resetEnv } from "@/lib/core/env";
import { DomainError } from "@/lib/core/errors";
import { FakeFal } from "@/test/servers/fal";
import { breakerFor } from "./circuit-breaker";
import { CircuitOpenError, ModelFailedError, ProviderRejectedError, ProviderUnavailableError, providerErrorToDomainError } from "./errors";
import { signedMediaUrl } from "@/simulators/local-provider/media-url";
import {
  fetchProviderMedia,
  providerByName,
  configuredProviderName,
  providerRegistration,
  registerProvider,
  resetProviders,
  type ProviderRegistration,
} from "./registry";

let fal: FakeFal;
const saved = { ...process.env };

function setEnv(vars: Record<string, string>) {
  Object.assign(process.env, vars);
  resetEnv();
  resetProviders();
}

beforeAll(async () => {
  fal = await FakeFal.start();
});
afterAll(async () => {
  await fal.close();
});
afterEach(() => {
  for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k];
  Object.assign(process.env, saved);
  resetEnv();
  resetProviders();
});

async function caught(p: Promise<unknown>): Promise<any> {
  try {
    await p;
  } catch (err) {
    return err;
  }
  throw new Error("expected a rejection");
}

describe("selection", () => {
  // Which provider a job runs on (sandbox keys, routes, preferences) is planned in lib/generation/routing.ts.
  test("the embedded default is the local simulator", () => {
    expect(providerByName(configuredProviderName()).name).toBe("local");
  });

  test("PROVIDER=fal: the configured provider is fal, called with its key", async () => {
    setEnv({ PROVIDER: "fal", FAL_KEY: fal.key, FAL_QUEUE_URL: fal.queueUrl, FAL_API_URL: fal.apiUrl });
    const live = providerByName(configuredProviderName());
    expect(live.name).toBe("fal");
    const { providerRequestId } = await live.submit({ endpointId: "fal-ai/flux/dev", input: { prompt: "p" }, requestId: "r" });
    expect(fal.request(providerRequestId)).toBeDefined();
    expect(fal.calls.at(-1)!.headers.authorization).toBe(`Key ${fal.key}`);
  });

  test("PROVIDER=fal without FAL_KEY stops start-up naming the variable", () => {
    expect(() => parseEnv({ PROVIDER: "fal" })).toThrow(EnvError);
    expect(() => parseEnv({ PROVIDER: "fal" })).toThrow(/FAL_KEY: required when PROVIDER=fal/);
    expect(parseEnv({ PROVIDER: "fal", FAL_KEY: "k" }).PROVIDER).toBe("fal");
  });

  test("PROVIDER=replicate is Replicate and needs REPLICATE_API_TOKEN", () => {
    expect(() => parseEnv({ PROVIDER: "replicate" })).toThrow(/REPLICATE_API_TOKEN: required when PROVIDER=replicate/);
    expect(() => parseEnv({ PROVIDER: "replicate", REPLICATE_API_TOKEN: "r8", REPLICATE_CANCEL_AFTER: "soon" })).toThrow(
      /REPLICATE_CANCEL_AFTER/,
    );
    setEnv({ PROVIDER: "replicate", REPLICATE_API_TOKEN: "r8_x", REPLICATE_API_URL: "http://127.0.0.1:9/v1" });
    expect(providerByName(configuredProviderName()).name).toBe("replicate");
  });

  test("a bad LOCAL_PROVIDER_MODELS stops start-up too", () => {
    expect(() => parseEnv({ LOCAL_PROVIDER_MODELS: "[1,2]" })).toThrow(/LOCAL_PROVIDER_MODELS/);
  });

  test("media of the simulator is read in-process; other URLs are left to the network", async () => {
    const p = providerByName("local");
    const { providerRequestId } = await p.submit({
      endpointId: "fal-ai/flux/dev",
      input: { prompt: "m", image_size: "square" },
      requestId: "r",
    });
    const result: any = await p.result({ endpointId: "fal-ai/flux/dev", providerRequestId });
    const media = await fetchProviderMedia(result.output.images[0].url);
    expect(media?.contentType).toBe("image/jpeg");
    expect(media?.bytes.byteLength).toBe(result.output.images[0].file_size);
    expect(await fetchProviderMedia("https://v3.fal.media/files/x.png")).toBeNull();
  });
});

describe("reading a result's media", () => {
  /** The registration under `name`, counting the providers it builds, until the test ends. */
  function countBuilds(name: "local" | "fal") {
    const real = providerRegistration(name)!;
    const counter = { built: 0 };
    const counting: ProviderRegistration = {
      ...real,
      create: () => {
        counter.built++;
        return real.create();
      },
    };
    registerProvider(name, counting);
    restore.push(() => registerProvider(name, real));
    return counter;
  }
  const restore: (() => void)[] = [];
  afterEach(() => {
    for (const undo of restore.splice(0)) undo();
  });

  test("PROVIDER=fal: the simulator's links are read in-process, and no provider is built or started for it", async () => {
    setEnv({ PROVIDER: "fal", FAL_KEY: fal.key, FAL_QUEUE_URL: fal.queueUrl, FAL_API_URL: fal.apiUrl });
    const local = countBuilds("local");
    const falBuilds = countBuilds("fal");
    // A sandbox job's output under PROVIDER=fal: a link the simulator signed.
    const spec = { kind: "image", seed: "0123456789abcdef", width: 64, height: 48, index: 0, format: "png" } as const;
    const link = signedMediaUrl(spec, Math.floor(Date.now() / 1000) + 3600);

    const media = await fetchProviderMedia(link);
    expect(media?.contentType).toBe("image/png");
    expect(await fetchProviderMedia("https://v3.fal.media/files/x.png")).toBeNull();
    expect(await fetchProviderMedia(link.replace(/sig=[0-9a-f]+/, "sig=" + "0".repeat(32)))).toBeNull();
    expect({ local: local.built, fal: falBuilds.built }).toEqual({ local: 0, fal: 0 });

    // The counters do count: the simulator's first use builds it (once), fal's first use fal.
    providerByName("local");
    providerByName("fal");
    expect({ local: local.built, fal: falBuilds.built }).toEqual({ local: 1, fal: 1 });
  });
});

describe("circuit breaker in front of each provider", () => {
  test("consecutive provider failures open the provider's circuit; others stay closed", async () => {
    setEnv({ PROVIDER_BREAKER_FAILURES: "2", PROVIDER_BREAKER_COOLDOWN_MS: "60000" });
    const local = providerByName("local");
    const submit = (prompt: string) => local.submit({ endpointId: "fal-ai/flux/dev", input: { prompt }, requestId: "r" });
    expect(await caught(submit("[fail:provider]"))).toMatchObject({ status: 503 });
    expect(await caught(submit("[fail:provider]"))).toMatchObject({ status: 503 });
    const open = await caught(submit("fine"));
    expect(open).toBeInstanceOf(CircuitOpenError);
    expect(breakerFor("local").snapshot()).toMatchObject({ state: "open", consecutiveFailures: 2 });
    expect(breakerFor("fal").state).toBe("closed");

    // What the engine answers: 503 provider_error with Retry-After, before charging anything.
    expect(() => breakerFor("local").assertAvailable()).toThrow(DomainError);
    const api = providerErrorToDomainError(open) as DomainError;
    expect(api).toMatchObject({ code: "provider_error", httpStatus: 503, headers: { "Retry-After": "60" } });
  });

  test("fal's answers after retries feed its breaker", async () => {
    setEnv({
      PROVIDER: "fal",
      FAL_KEY: fal.key,
      FAL_QUEUE_URL: fal.queueUrl,
      FAL_API_URL: fal.apiUrl,
      FAL_MAX_RETRIES: "0",
      PROVIDER_BREAKER_FAILURES: "2",
    });
    fal.failNext("status", { status: 503, body: {} }, { status: 502, body: {} });
    const p = providerByName("fal");
    const ref = { endpointId: "fal-ai/flux/dev", providerRequestId: "x" };
    await caught(p.status(ref));
    await caught(p.status(ref));
    const before = fal.callsTo("status").length;
    expect(await caught(p.status(ref))).toBeInstanceOf(CircuitOpenError);
    expect(fal.callsTo("status").length).toBe(before);
    // Catalog calls are not queue traffic: they still go through.
    await expect(p.listModels()).resolves.toBeDefined();
  });
});

describe("errors the engine answers with", () => {
  test.each([
    [
      new ModelFailedError("fal", "result", "prompt: too long", {
        status: 422,
        detail: [{ msg: "too long" }],
        errorType: "string_too_long",
      }),
      500,
      "generation_failed",
      {},
    ],
    [new ProviderUnavailableError("fal", "submit", "down", { status: 503 }), 502, "provider_error", {}],
    [
      new ProviderUnavailableError("fal", "submit", "rate", { status: 429, retryAfterMs: 2500 }),
      502,
      "provider_error",
      { "Retry-After": "3" },
    ],
    [new ProviderRejectedError("fal", "submit", "401", { status: 401 }), 502, "provider_error", {}],
    [new CircuitOpenError("fal", "submit", 1200), 503, "provider_error", { "Retry-After": "2" }],
  ])("%s → %i %s", (err, status, code, headers) => {
    const mapped = providerErrorToDomainError(err) as DomainError;
    expect({ status: httpStatusOf(mapped), code: mapped.code, headers: mapped.headers }).toMatchObject({ status, code, headers });
  });

  test("a model failure keeps its detail for the caller", () => {
    const api = providerErrorToDomainError(
      new ModelFailedError("fal", "result", "prompt: too long", { status: 422, detail: [{ msg: "too long" }] }),
    ) as DomainError;
    expect(api.message).toBe("Generation failed: prompt: too long");
    expect(api.extra).toMatchObject({ detail: [{ msg: "too long" }] });
  });

  test("anything else is handed back unchanged", () => {
    const other = new Error("x");
    expect(providerErrorToDomainError(other)).toBe(other);
  });
});
