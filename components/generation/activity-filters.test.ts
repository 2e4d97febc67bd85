import { describe, expect, test } from "vitest";
import { activityQuery } from "@/lib/http/contracts/generation";
import { activityApiQuery, OPERATIONS, STATUSES, activityPageHref, filtersFrom, formatDuration, withFilter } from "./activity-filters";

describe("activity filters in the page URL and the API query", () => {
  test("search params → filters: blanks, bad offsets and oversized values are dropped", () => {
    expect(filtersFrom({ modelId: "fal-ai/flux/dev", status: " failed ", operation: "", offset: "-5", apiKeyId: "k".repeat(300) })).toEqual(
      {
        modelId: "fal-ai/flux/dev",
        status: "failed",
        offset: 0,
      },
    );
    expect(filtersFrom(new URLSearchParams("apiKeyId=key_1&offset=50&offset=75"))).toEqual({ apiKeyId: "key_1", offset: 50 });
    expect(filtersFrom({ operation: ["queue", "run"] })).toEqual({ operation: "queue", offset: 0 });
  });

  test("filters → the JSON API query, always paged", () => {
    expect(activityApiQuery({ offset: 0 })).toBe("limit=25&offset=0");
    expect(
      activityApiQuery({ modelId: "fal-ai/flux/dev", operation: "queue", status: "completed", apiKeyId: "key 1", offset: 25 }, 10),
    ).toBe("modelId=fal-ai%2Fflux%2Fdev&apiKeyId=key+1&operation=queue&status=completed&limit=10&offset=25");
  });

  test("filters → the page's own link, and changing a filter returns to the first page", () => {
    expect(activityPageHref({ offset: 0 })).toBe("/dashboard/activity");
    const paged = { status: "failed", offset: 50 };
    expect(activityPageHref(paged)).toBe("/dashboard/activity?status=failed&offset=50");
    expect(withFilter(paged, "modelId", "fal-ai/flux/dev")).toEqual({ status: "failed", modelId: "fal-ai/flux/dev", offset: 0 });
    expect(withFilter(paged, "status", "")).toEqual({ offset: 0 });
  });
});

describe("durations", () => {
  test("milliseconds, seconds with one decimal, minutes and seconds; nothing for a missing one", () => {
    expect([850, 2449, 2450, 59_999, 185_000, null, -1].map(formatDuration)).toEqual([
      "850 ms",
      "2.4 s",
      "2.5 s",
      "1 min 0 s",
      "3 min 5 s",
      "—",
      "—",
    ]);
  });
});

describe("filter choices", () => {
  test("the operation and status choices are exactly the values GET /me/activity accepts", () => {
    expect([...OPERATIONS].sort()).toEqual([...activityQuery.shape.operation.unwrap().options].sort());
    expect([...STATUSES].sort()).toEqual([...activityQuery.shape.status.unwrap().options].sort());
  });
});
