import { AsyncLocalStorage } from "node:async_hooks";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, test } from "vitest";
import { isSettled, settling, valueOf, type Settling } from "./settling";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

/** A "request" run in an AsyncLocalStorage store, as Next.js runs one, that leaves `keep` behind. */
async function request(keep: (made: Promise<number>) => void): Promise<WeakRef<object>> {
  const als = new AsyncLocalStorage<{ response: object }>();
  const response = { body: new Uint8Array(64 * 1024) };
  await als.run({ response }, async () => {
    const made = (async () => 42)();
    keep(made);
    await made;
  });
  return new WeakRef(response);
}

const collected = async (ref: WeakRef<object>) => {
  await new Promise((r) => setImmediate(r));
  gc();
  return ref.deref() === undefined;
};

describe("settling entries", () => {
  test("a kept promise keeps its request's store alive; a settled entry keeps only the value", async () => {
    const promises = new Map<string, Promise<number>>();
    const entries = new Map<string, Settling<number>>();
    const byPromise = await request((made) => promises.set("k", made));
    const byEntry = await request((made) => entries.set("k", settling(made)));
    expect(await collected(byPromise)).toBe(false);
    expect(await collected(byEntry)).toBe(true);
    expect(isSettled(entries.get("k")!)).toBe(true);
    expect(await valueOf(entries.get("k")!)).toBe(42);
  });

  test("while pending, every caller shares the one promise; a failure calls onRejected and rejects", async () => {
    let fail!: (e: Error) => void;
    const failing = new Promise<number>((_, reject) => (fail = reject));
    let rejectedWith: unknown;
    const entry = settling(failing, (error) => (rejectedWith = error));
    expect(valueOf(entry)).toBe(failing);
    expect(isSettled(entry)).toBe(false);
    fail(new Error("render failed"));
    await expect(valueOf(entry)).rejects.toThrow("render failed");
    expect((rejectedWith as Error).message).toBe("render failed");
  });
});
