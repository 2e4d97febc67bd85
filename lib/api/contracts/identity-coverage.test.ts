import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { buildOpenApiDocument } from "@/lib/openapi/document";

/** Every handler exported by the identity routes, found on disk, must be in /openapi.json. */
function routeFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return name.startsWith("[...") ? [] : routeFiles(full);
    return name === "route.ts" ? [full] : [];
  });
}

function operationsOnDisk(root: string, prefix: string) {
  return routeFiles(root).flatMap((file) => {
    const rel = path.relative(root, path.dirname(file)).split(path.sep).filter(Boolean);
    const openapiPath = [prefix, ...rel.map((s) => s.replace(/^\[(\w+)\]$/, "{$1}"))].join("/");
    const methods = [...readFileSync(file, "utf8").matchAll(/export const (GET|POST|PUT|PATCH|DELETE)\b/g)].map((m) => m[1]!.toLowerCase());
    return methods.map((method) => `${method} ${openapiPath}`);
  });
}

describe("OpenAPI covers every identity endpoint", () => {
  test("each /me and /admin/users handler is documented", () => {
    const paths = buildOpenApiDocument().paths ?? {};
    const documented = new Set(Object.entries(paths).flatMap(([p, ops]) => Object.keys(ops ?? {}).map((m) => `${m} ${p}`)));
    const onDisk = [
      ...operationsOnDisk(path.resolve("app/(gateway)/me"), "/me").filter((op) => !op.includes("/uploads") && !op.includes("/activity")),
      ...operationsOnDisk(path.resolve("app/(gateway)/admin/users"), "/admin/users"),
    ];
    expect(onDisk.length).toBeGreaterThanOrEqual(19);
    expect(onDisk.filter((op) => !documented.has(op))).toEqual([]);
  });
});
