import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";

/**
 * The layers, checked on every source file's imports (tests aside: they may reach anywhere to
 * arrange and read back). app/ renders and routes through lib/; lib/ is the domain and never
 * depends on a route or on the HTTP layer, except the modules that are that layer; db/ is the
 * schema, migrations and seed data, and depends on nothing of the domain.
 */
const ROOT = path.resolve(import.meta.dirname, "..");

/**
 * The HTTP layer: the wrappers, the contracts and the document built from them, and the protocols
 * the gateway speaks over HTTP on top of the engine (its own queue and stream answers, fal's, MCP).
 */
const HTTP_LAYER = ["lib/http/", "lib/fal-protocol/", "lib/mcp/", "lib/site/"];
/** Infrastructure db/ may use: configuration, logs and process-wide slots, which belong to no domain. */
const DB_MAY_USE = ["lib/core/env", "lib/core/logger", "lib/core/process-wide"];

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
    const rel = path.posix.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sources(rel));
    else if (/\.(ts|tsx)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) out.push(rel);
  }
  return out;
}

/** Every module a file imports, as a repository path without extension (packages are skipped). */
function importsOf(file: string): string[] {
  const text = readFileSync(path.join(ROOT, file), "utf8");
  const specs = [...text.matchAll(/(?:from|import)\s*\(?\s*"([^"]+)"/g)].map((m) => m[1]!);
  return specs.flatMap((s) => {
    if (s.startsWith("@/")) return [s.slice(2)];
    if (s.startsWith(".")) return [path.posix.normalize(path.posix.join(path.posix.dirname(file), s))];
    return [];
  });
}

const violations = (dir: string, forbidden: (target: string, file: string) => boolean) =>
  sources(dir).flatMap((file) =>
    importsOf(file)
      .filter((t) => forbidden(t, file))
      .map((t) => `${file} → ${t}`),
  );

const under = (target: string, prefix: string) => target === prefix.replace(/\/$/, "") || target.startsWith(prefix);

/** The unit of a repository path: `lib/<first segment>` (a file's without extension), `inngest`, `db`. */
function unitOf(target: string): string | null {
  const [top, second] = target.split("/");
  if (top === "lib" && second) return `lib/${second.replace(/\.tsx?$/, "")}`;
  return top === "inngest" || top === "db" ? top : null;
}

/** unit → the units its sources import. */
function unitGraph(): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const file of ["lib", "inngest", "db"].flatMap(sources)) {
    const from = unitOf(file)!;
    const edges = graph.get(from) ?? graph.set(from, new Set()).get(from)!;
    for (const to of importsOf(file).map(unitOf)) if (to && to !== from) edges.add(to);
  }
  return graph;
}

/** The strongly connected components of more than one unit (Tarjan), each sorted. */
function circles(graph: Map<string, Set<string>>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const found: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (stack.includes(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do component.push((w = stack.pop()!));
      while (w !== v);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

describe("layering", () => {
  test("app/ never imports db/", () => {
    expect(violations("app", (t) => under(t, "db/"))).toEqual([]);
  });

  test("lib/ never imports app/", () => {
    expect(violations("lib", (t) => under(t, "app/"))).toEqual([]);
  });

  test("lib/ imports lib/http only from the HTTP layer itself", () => {
    const inLayer = (file: string) => HTTP_LAYER.some((p) => file.startsWith(p));
    expect(violations("lib", (t, file) => under(t, "lib/http/") && !inLayer(file))).toEqual([]);
  });

  test("db/ never imports domain code", () => {
    expect(violations("db", (t) => under(t, "lib/") && !DB_MAY_USE.includes(t))).toEqual([]);
    expect(violations("db", (t) => under(t, "app/"))).toEqual([]);
  });

  // The simulators (the local generation and payment providers) and the tools (the fal-protocol
  // simulator) sit beside the product: they import lib/, and are registered at start-up
  // (simulators/register.ts), never imported by it.
  test("lib/ and db/ never import simulators/ or tools/", () => {
    const outside = (t: string) => under(t, "simulators/") || under(t, "tools/");
    expect([...violations("lib", outside), ...violations("db", outside)]).toEqual([]);
  });

  // Inside lib/ a verb may hand its owner to an owner-scoped query (`keysOf(db, userId)`, which the
  // admin views share); what routes, pages and actions call always takes the context whole.
  test("one verb style: app/ passes the context, never (ctx.db, ctx.principal…)", () => {
    const split = sources("app").filter((f) => /\(\s*ctx\.db,\s*ctx\.principal\b/.test(readFileSync(path.join(ROOT, f), "utf8")));
    expect(split).toEqual([]);
  });

  test("outside lib/generation, the engine is reached only through its face (lib/generation/index.ts)", () => {
    const outside = ["app", "components", "lib", "inngest", "simulators", "tools"].flatMap((dir) =>
      violations(dir, (t, file) => t.startsWith("lib/generation/") && !file.startsWith("lib/generation/")),
    );
    expect(outside).toEqual([]);
  });

  // Each folder (or file) directly under lib/, and inngest/ and db/, is a unit; type imports count
  // (a type is a dependency a reader must follow). The units must form layers: no circle.
  test("no import circle between the units of lib/, inngest/ and db/", () => {
    expect(circles(unitGraph())).toEqual([]);
  });

  test("the checks see the tree (a broken walker would pass everything)", () => {
    expect(sources("app").length).toBeGreaterThan(50);
    expect(sources("lib").length).toBeGreaterThan(200);
    expect(importsOf("lib/http/handler.ts")).toContain("lib/auth/resolve");
    expect(unitGraph().get("lib/http")).toContain("lib/auth");
    expect(
      circles(
        new Map([
          ["a", new Set(["b"])],
          ["b", new Set(["a"])],
          ["c", new Set(["a"])],
        ]),
      ),
    ).toEqual([["a", "b"]]);
    expect(importsOf("simulators/register.ts")).toContain("lib/provider/registry");
  });
});
