import { describe, expect, test } from "vitest";
import { DomainError } from "@/lib/core/errors";
import { CircuitBreaker } from "./circuit-breaker";
import { CircuitOpenError, ModelFailedError, ProviderRejectedError, ProviderUnavailableError } from "./errors";

function setup(failureThreshold = 3, cooldownMs = 10_000) {
  let clock = 1_000_000;
  const breaker = new CircuitBreaker("fal", { failureThreshold, cooldownMs, now: () => clock });
  const calls = { n: 0 };
  const fail = () =>
    breaker.run("submit", async () => {
      calls.n++;
      throw new ProviderUnavailableError("fal", "submit", "down", { status: 503 });
    });
  const succeed = () =>
    breaker.run("submit", async () => {
      calls.n++;
      return "ok";
    });
  return { breaker, calls, fail, succeed, advance: (ms: number) => (clock += ms) };
}

async function settle(p: Promise<unknown>) {
  try {
    return await p;
  } catch (err) {
    return err;
  }
}

describe("circuit breaker", () => {
  test("opens after N consecutive retryable failures and then fails fast without calling the provider", async () => {
    const { breaker, calls, fail, succeed } = setup(3);
    await settle(fail());
    await settle(fail());
    expect(breaker.state).toBe("closed");
    await settle(fail());
    expect(breaker.snapshot()).toMatchObject({ state: "open", consecutiveFailures: 3, retryAfterMs: 10_000 });
    const err = await settle(succeed());
    expect(err).toBeInstanceOf(CircuitOpenError);
    expect(err).toMatchObject({ retryable: true, reason: "circuit_open", retryAfterMs: 10_000 });
    expect(calls.n).toBe(3);
  });

  test("a success in between resets the count", async () => {
    const { breaker, fail, succeed } = setup(3);
    await settle(fail());
    await settle(fail());
    await succeed();
    await settle(fail());
    await settle(fail());
    expect(breaker.state).toBe("closed");
  });

  test("model failures and rejections prove the provider is up: they never open it", async () => {
    const { breaker } = setup(2);
    for (let i = 0; i < 5; i++) {
      await settle(breaker.run("result", async () => Promise.reject(new ModelFailedError("fal", "result", "422", { status: 422 }))));
      await settle(breaker.run("submit", async () => Promise.reject(new ProviderRejectedError("fal", "submit", "401", { status: 401 }))));
      await settle(
        breaker.run("result", async () => Promise.reject(new ProviderUnavailableError("fal", "result", "wait", { reason: "not_ready" }))),
      );
    }
    expect(breaker.state).toBe("closed");
  });

  test("after the cooldown one probe goes through: success closes, failure re-opens for another cooldown", async () => {
    const { breaker, calls, fail, succeed, advance } = setup(2, 10_000);
    await settle(fail());
    await settle(fail());
    advance(4_000);
    expect(breaker.retryAfterMs()).toBe(6_000);
    advance(6_000);
    expect(breaker.state).toBe("half_open");
    expect(breaker.canRequest()).toBe(true);

    // The probe fails: open again, a full cooldown from now.
    await settle(fail());
    expect(breaker.snapshot()).toMatchObject({ state: "open", retryAfterMs: 10_000 });
    advance(10_000);

    // Only one probe at a time; the others are turned away while it is in flight.
    let release!: () => void;
    const probe = breaker.run("submit", () => new Promise<string>((r) => (release = () => r("ok"))));
    expect(await settle(succeed())).toBeInstanceOf(CircuitOpenError);
    release();
    await probe;
    expect(breaker.snapshot()).toMatchObject({ state: "closed", consecutiveFailures: 0, retryAfterMs: 0 });
    await succeed();
    expect(calls.n).toBe(4);
  });

  test("a probe that never answers does not keep the circuit shut forever", async () => {
    const { breaker, advance, succeed } = setup(1, 1_000);
    await settle(breaker.run("submit", async () => Promise.reject(new ProviderUnavailableError("fal", "submit", "x"))));
    advance(1_000);
    void breaker.run("submit", () => new Promise(() => {}));
    expect(breaker.canRequest()).toBe(false);
    advance(1_000);
    expect(await succeed()).toBe("ok");
  });

  test("assertAvailable answers 503 provider_error with Retry-After in whole seconds while open", async () => {
    const { breaker, fail, advance } = setup(1, 30_000);
    expect(() => breaker.assertAvailable()).not.toThrow();
    await settle(fail());
    advance(100);
    let err: unknown;
    try {
      breaker.assertAvailable();
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(DomainError);
    expect(err).toMatchObject({ code: "provider_error", httpStatus: 503, headers: { "Retry-After": "30" } });
    advance(29_900);
    expect(() => breaker.assertAvailable()).not.toThrow();
  });
});
