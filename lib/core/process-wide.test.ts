import { describe, expect, test, vi } from "vitest";
import { withEnv } from "@/test/env";

/**
 * Module state that must be one per process survives a second copy of its module (what the
 * production build makes of a module imported by several routes; `vi.resetModules()` here).
 */
describe("success", () => {
  test("the per-user stream cap counts the streams of every copy of the module together", async () => {
    await withEnv({ STREAMS_PER_USER_MAX: "2" }, async () => {
      const first = await import("@/lib/generation/stream-slots");
      vi.resetModules();
      const second = await import("@/lib/generation/stream-slots");
      expect(second.takeStreamSlot).not.toBe(first.takeStreamSlot);
      const a = first.takeStreamSlot("user-1");
      const b = second.takeStreamSlot("user-1");
      expect(() => first.takeStreamSlot("user-1")).toThrow(/At most 2 streams/);
      b();
      const c = first.takeStreamSlot("user-1");
      a();
      c();
    });
  });

  test("a value is created once and handed to every copy", async () => {
    const { processWide } = await import("@/lib/core/process-wide");
    vi.resetModules();
    const copy = await import("@/lib/core/process-wide");
    const made = processWide("test.shared", () => ({ n: 1 }));
    expect(copy.processWide("test.shared", () => ({ n: 2 }))).toBe(made);
  });
});
