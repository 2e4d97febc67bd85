import { describe, expect, test } from "vitest";
import { changelog } from "@/db/seed/changelog";
import { call } from "@/test/http";
import { GET } from "./route";

describe("GET /changelog.json", () => {
  test("publishes the seeded entries without authentication", async () => {
    const res = await call(GET, "/changelog.json");
    expect(res.status).toBe(200);
    expect(res.body.entries).toHaveLength(changelog.length);
    expect(res.body.entries[0]).toEqual({
      version: expect.any(String),
      date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      notes: expect.any(Array),
    });
  });
});
