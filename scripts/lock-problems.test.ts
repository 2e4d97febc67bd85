import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { lockProblems, type Lockfile, type Manifest } from "./lock-problems";

const read = <T>(file: string): T => JSON.parse(readFileSync(file, "utf8")) as T;

// A lock as npm writes it: next with its platform binaries as optional dependencies.
const manifest: Manifest = { dependencies: { next: "16.4.6" }, devDependencies: { tsx: "4.23.15" } };
const complete = (): Lockfile => ({
  lockfileVersion: 3,
  packages: {
    "": { dependencies: { next: "16.4.6" }, devDependencies: { tsx: "4.23.15" } },
    "node_modules/next": {
      version: "16.4.6",
      dependencies: { "styled-jsx": "5.1.6" },
      optionalDependencies: { "@next/swc-darwin-arm64": "16.4.6", "@next/swc-linux-x64-gnu": "16.4.6" },
    },
    "node_modules/next/node_modules/styled-jsx": { version: "5.1.6" },
    "node_modules/@next/swc-darwin-arm64": { version: "16.4.6" },
    "node_modules/@next/swc-linux-x64-gnu": { version: "16.4.6" },
    "node_modules/tsx": { version: "4.23.15" },
  },
});

describe("success", () => {
  test("the committed lock installs with npm ci on every platform", () => {
    expect(lockProblems(read("package.json"), read("package-lock.json"))).toEqual([]);
  });

  test("a complete lock, with a dependency nested under its dependent, has no problems", () => {
    expect(lockProblems(manifest, complete())).toEqual([]);
  });
});

describe("validation", () => {
  test("another platform's optional binary missing from the lock is named", () => {
    const lock = complete();
    delete lock.packages!["node_modules/@next/swc-darwin-arm64"];
    expect(lockProblems(manifest, lock)).toEqual(["@next/swc-darwin-arm64@16.4.6 (optional dependency of node_modules/next) is missing"]);
  });

  test("a dependency added to package.json but not to the lock is named", () => {
    expect(lockProblems({ ...manifest, dependencies: { ...manifest.dependencies, "prom-client": "15.1.3" } }, complete())).toEqual([
      "prom-client@15.1.3 (package.json dependencies) is not in the lock as a dependency",
    ]);
  });

  test("a version changed in package.json but not in the lock is named", () => {
    expect(lockProblems({ ...manifest, devDependencies: { tsx: "4.24.0" } }, complete())).toEqual([
      "tsx@4.24.0 (package.json devDependencies) is not in the lock as 4.23.15",
    ]);
  });

  test("a dependency nested elsewhere does not count for a package that cannot see it", () => {
    const lock = complete();
    lock.packages!["node_modules/other"] = { version: "1.0.0", dependencies: { "styled-jsx": "5.1.6" } };
    expect(lockProblems(manifest, lock)).toEqual(["styled-jsx@5.1.6 (dependency of node_modules/other) is missing"]);
  });

  test("a lock without a packages section is refused", () => {
    expect(lockProblems(manifest, { lockfileVersion: 1 })).toHaveLength(1);
  });
});
