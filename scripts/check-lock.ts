/** `npm run lint:lock` (also part of `npm run lint`): see lockProblems in ./lock-problems.ts. */
import { readFileSync } from "node:fs";
import path from "node:path";
import { lockProblems, type Lockfile, type Manifest } from "./lock-problems";

function main(): void {
  const dir = path.resolve(process.argv[2] ?? ".");
  const manifest = JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8")) as Manifest;
  const lock = JSON.parse(readFileSync(path.join(dir, "package-lock.json"), "utf8")) as Lockfile;
  const problems = lockProblems(manifest, lock);
  if (problems.length === 0) return;
  console.error(
    `package-lock.json is incomplete: \`npm ci\` would refuse it (${problems.length} problem${problems.length === 1 ? "" : "s"}):\n` +
      problems.map((p) => `  - ${p}`).join("\n") +
      "\nRun `npm install --package-lock-only` (against a registry serving every platform's packages) and commit the lock.",
  );
  process.exitCode = 1;
}

main();
