import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { operations } from "@/lib/http/contracts";
import type { Operation } from "@/lib/http/contracts/operation";
import { gatewayUnknownRoute, skillUnknownRoute } from "@/lib/http/unknown-route";

/**
 * The route files are the contract: each exported method handler carries the operations it serves
 * (`handler.operations`, set by withGateway/withSkill/serving), and this test holds them to the
 * file's location and to the contract list /openapi.json is built from.
 */
const APP = path.resolve("app");
const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;
/** Auth.js's own endpoints: its protocol, not ours. */
const FOREIGN = new Set(["/api/auth/[...nextauth]"]);
/** Paths proxy.ts rewrites to another route file (the operation's path → the file's). */
const REWRITES: Record<string, string> = { "/catalog/{modelId}/llms.txt": "/llms.txt/{modelId}" };

function routeFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return routeFiles(full);
    return name === "route.ts" ? [full] : [];
  });
}

/** The URL path a route file answers, route groups left out: `/me/keys/[id]`. */
const locationOf = (file: string) =>
  "/" +
  path
    .relative(APP, path.dirname(file))
    .split(path.sep)
    .filter((s) => s && !/^\(.*\)$/.test(s))
    .join("/");

/**
 * Whether an operation's path template is served at a file's location: literal segments equal,
 * `[id]` takes `{id}` (the same name, as the params schema reads it), `[...rest]` one or more.
 */
export function servesPath(location: string, opPath: string): boolean {
  const pattern = location
    .split("/")
    .map((s) => {
      if (/^\[\.\.\.\w+\]$/.test(s)) return ".+";
      const param = /^\[(\w+)\]$/.exec(s);
      return param ? `\\{${param[1]}\\}` : s.replace(/[.*+?^${}()|\\]/g, "\\$&");
    })
    .join("/");
  return new RegExp(`^${pattern}$`).test(REWRITES[opPath] ?? opPath);
}

type Handler = { operations?: readonly Operation[]; allow?: string };
const unknownPath = new Set<unknown>([...Object.values(gatewayUnknownRoute), ...Object.values(skillUnknownRoute)]);

async function routeModules() {
  const files = routeFiles(APP).filter((file) => !FOREIGN.has(locationOf(file)));
  return Promise.all(files.map(async (file) => ({ location: locationOf(file), module: (await import(file)) as Record<string, unknown> })));
}

describe("route files and the contract", () => {
  test("the path matcher tells a file's location from another", () => {
    expect(servesPath("/me/keys/[id]", "/me/keys/{id}")).toBe(true);
    expect(servesPath("/me/keys/[id]", "/me/keys")).toBe(false);
    expect(servesPath("/me/keys/[id]", "/me/keys/{keyId}")).toBe(false);
    expect(servesPath("/models/[...path]", "/models/{modelId}/estimate")).toBe(true);
    expect(servesPath("/models/[...path]", "/models")).toBe(false);
    expect(servesPath("/llms.txt/[...modelId]", "/catalog/{modelId}/llms.txt")).toBe(true);
  });

  test("every exported handler serves operations of its method at its location, or refuses with the right Allow", async () => {
    const wrong: string[] = [];
    for (const { location, module } of await routeModules()) {
      const served = new Set<string>();
      const refusing: [string, string][] = [];
      for (const method of METHODS) {
        const handler = module[method] as Handler | undefined;
        if (!handler) continue;
        if (unknownPath.has(handler)) {
          if (!location.includes("[...")) wrong.push(`${method} ${location}: an unknown-path handler outside a catch-all`);
        } else if (handler.allow !== undefined) {
          refusing.push([method, handler.allow]);
        } else if (!handler.operations?.length) {
          wrong.push(`${method} ${location}: no operation`);
        } else {
          if (method !== "HEAD") served.add(method);
          for (const op of handler.operations) {
            const expected = method === "HEAD" ? "get" : method.toLowerCase();
            if (op.method !== expected || !servesPath(location, op.path))
              wrong.push(`${method} ${location}: serves ${op.operationId} (${op.method} ${op.path})`);
          }
        }
      }
      // Allow names what the file serves (HEAD with GET, and OPTIONS, aside).
      const methods = [...served].sort().join(", ");
      for (const [method, allow] of refusing) {
        const allowed = allow.split(", ").filter((m) => m !== "HEAD" && m !== "OPTIONS");
        if (allowed.sort().join(", ") !== methods) wrong.push(`${method} ${location}: Allow ${allow}, serves ${methods}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  test("every operation of the contract is served by exactly one handler", async () => {
    const servedBy = new Map<Operation, string[]>();
    for (const { location, module } of await routeModules()) {
      for (const method of METHODS) {
        const handler = module[method] as Handler | undefined;
        // HEAD answers with GET's handler (Next.js, or `export const HEAD = GET`).
        if (method === "HEAD" && handler === module.GET) continue;
        for (const op of handler?.operations ?? []) servedBy.set(op, [...(servedBy.get(op) ?? []), `${method} ${location}`]);
      }
    }
    const unknown = [...servedBy.keys()].filter((op) => !operations.includes(op)).map((op) => op.operationId);
    expect(unknown, "served but not listed in lib/http/contracts/index.ts").toEqual([]);
    const notOnce = operations
      .filter((op) => (servedBy.get(op)?.length ?? 0) !== 1)
      .map((op) => `${op.operationId}: ${(servedBy.get(op) ?? ["nowhere"]).join(", ")}`);
    expect(notOnce).toEqual([]);
  });
});
