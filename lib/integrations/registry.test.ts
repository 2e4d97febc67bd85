import { afterEach, describe, expect, test } from "vitest";
import { resetEnv } from "@/lib/core/env";
import { DomainError } from "@/lib/core/errors";
import { integrationAdapters, resolveIntegration } from "./registry";

afterEach(() => {
  delete process.env.INTEGRATION_SLUG;
  resetEnv();
});

const slugOf = (segment: string) => {
  const { adapter, action } = resolveIntegration(segment);
  return { slug: adapter.slug, action: action === adapter.generate ? "generate" : "edit" };
};

describe("resolveIntegration", () => {
  test("`<slug>` is the generate action and `<slug>-edit` the edit action of the configured adapter", () => {
    expect([...integrationAdapters().keys()]).toEqual(["covers"]);
    expect(slugOf("covers")).toEqual({ slug: "covers", action: "generate" });
    expect(slugOf("covers-edit")).toEqual({ slug: "covers", action: "edit" });
  });

  test.each(["unknown", "covers-edit-edit", "Covers", "covers-", "-edit", "edit"])("%s is 404 not_found", (segment) => {
    expect(() => resolveIntegration(segment)).toThrow(DomainError);
    try {
      resolveIntegration(segment);
    } catch (err) {
      expect(err).toMatchObject({ code: "not_found" });
    }
  });

  test("an adapter whose slug itself ends in -edit keeps both actions", () => {
    process.env.INTEGRATION_SLUG = "photo-edit";
    resetEnv();
    expect(slugOf("photo-edit")).toEqual({ slug: "photo-edit", action: "generate" });
    expect(slugOf("photo-edit-edit")).toEqual({ slug: "photo-edit", action: "edit" });
    expect(() => resolveIntegration("photo")).toThrow(DomainError);
  });
});
