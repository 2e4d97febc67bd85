import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";

export type Row = Record<string, string | number>;

export function table(title: string, rows: Row[]) {
  console.log(`\n## ${title}\n`);
  if (rows.length === 0) return;
  const cols = Object.keys(rows[0]!);
  const widths = cols.map((c) => Math.max(c.length, ...rows.map((r) => String(r[c] ?? "").length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(" | ")} |`;
  console.log(line(cols));
  console.log(`|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`);
  for (const r of rows) console.log(line(cols.map((c) => String(r[c] ?? ""))));
}

export function saveResults(results: unknown) {
  const dir = path.join("bench", "results");
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${new Date().toISOString().replace(/[:.]/g, "-")}.json`);
  writeFileSync(file, JSON.stringify(results, null, 2));
  console.log(`\nresults written to ${file}`);
}
