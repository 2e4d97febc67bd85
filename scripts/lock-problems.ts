/**
 * The check behind `npm run lint:lock` (scripts/check-lock.ts): is package-lock.json one `npm ci`
 * installs from on any machine? Two ways a lock goes wrong here:
 * - package.json lists a dependency (or a version) the lock does not: `npm ci` refuses everywhere;
 * - the lock was written by an install that could not see other platforms' optional binaries
 *   (`@next/swc-darwin-arm64`, `@img/sharp-win32-x64`, …): `npm ci` refuses on every machine,
 *   including this one ("Missing: … from lock file"), and `npm install` rewrites the lock.
 * Both are read from the two files alone (no network, no node_modules). Fix a failure with
 * `npm install --package-lock-only` against a registry that serves every platform's packages.
 */
type LockEntry = {
  version?: string;
  link?: boolean;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
};
export type Manifest = Pick<LockEntry, "dependencies" | "optionalDependencies" | "devDependencies">;
export type Lockfile = { lockfileVersion?: number; packages?: Record<string, LockEntry> };

const SECTIONS = ["dependencies", "devDependencies", "optionalDependencies"] as const;

/** Where Node (and npm) would find `name` from the package installed at `from`. */
function resolveIn(packages: Record<string, LockEntry>, from: string, name: string): string | null {
  let dir = from;
  for (;;) {
    const candidate = `${dir ? `${dir}/` : ""}node_modules/${name}`;
    if (packages[candidate]) return candidate;
    if (!dir) return null;
    const up = dir.lastIndexOf("/node_modules/");
    dir = up < 0 ? "" : dir.slice(0, up);
  }
}

/** What is wrong with the lock, one line each; empty when `npm ci` can install from it anywhere. */
export function lockProblems(manifest: Manifest, lock: Lockfile): string[] {
  const problems: string[] = [];
  const packages = lock.packages;
  if (!packages || (lock.lockfileVersion ?? 0) < 2) return ["package-lock.json has no `packages` section (lockfileVersion 2 or later)"];
  const root = packages[""] ?? {};
  for (const section of SECTIONS) {
    for (const [name, spec] of Object.entries(manifest[section] ?? {})) {
      if (root[section]?.[name] !== spec) {
        problems.push(`${name}@${spec} (package.json ${section}) is not in the lock as ${root[section]?.[name] ?? "a dependency"}`);
      } else if (!resolveIn(packages, "", name)) {
        problems.push(`${name}@${spec} (package.json ${section}) has no node_modules/${name} entry`);
      }
    }
  }
  for (const [at, entry] of Object.entries(packages)) {
    if (entry.link) continue;
    for (const [name, spec] of Object.entries(entry.optionalDependencies ?? {})) {
      if (!resolveIn(packages, at, name)) problems.push(`${name}@${spec} (optional dependency of ${at || "the root"}) is missing`);
    }
    if (at === "") continue;
    for (const [name, spec] of Object.entries(entry.dependencies ?? {})) {
      if (!resolveIn(packages, at, name)) problems.push(`${name}@${spec} (dependency of ${at}) is missing`);
    }
  }
  return problems;
}
