import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";

/**
 * The README is one page for a newcomer; subsystem detail lives in docs/, and AGENTS.md says
 * where each concern of lib/ lives. These checks keep them so.
 */
const root = path.resolve(import.meta.dirname, "..");
const read = (file: string) => readFileSync(path.join(root, file), "utf8");
const markdown = [
  "README.md",
  "AGENTS.md",
  "SECURITY.md",
  "bench/RESULTS.md",
  ...readdirSync(path.join(root, "docs"))
    .filter((f) => f.endsWith(".md"))
    .map((f) => `docs/${f}`),
];

/** Relative link targets of a markdown file (no scheme, no bare anchors), with their anchors. */
function links(file: string): { target: string; anchor: string | null }[] {
  const text = read(file).replace(/```[\s\S]*?```/g, "");
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((m) => m[1]!)
    .filter((href) => !/^[a-z][a-z0-9+.-]*:/i.test(href) && !href.startsWith("#"))
    .map((href) => {
      const [target, anchor = null] = href.split("#");
      return { target: path.normalize(path.join(path.dirname(file), target!)), anchor };
    });
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as dashes. */
const anchorOf = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, "")
    .replace(/ /g, "-");

describe("README", () => {
  test("is one page: under 250 lines", () => {
    expect(read("README.md").split("\n").length).toBeLessThan(250);
  });

  test("its two Quick-start commands use scripts that exist, and CI installs with npm ci and runs the same test command", () => {
    const readme = read("README.md");
    expect(readme).toContain("npm ci && npm run build && DEV_MAILBOX=1 npm start");
    expect(readme).toMatch(/^npm test\b/m);
    const scripts = (JSON.parse(read("package.json")) as { scripts: Record<string, string> }).scripts;
    expect(Object.keys(scripts)).toEqual(expect.arrayContaining(["build", "start", "test"]));
    const ci = read(".ci/run");
    expect(ci).toMatch(/^npm ci\b/m);
    expect(ci).toMatch(/^npm test$/m);
    expect(ci).toContain("npm run -s lint");
    expect(scripts.lint).toContain("lint:lock");
  });

  test("has the sections a newcomer needs", () => {
    const headings = [...read("README.md").matchAll(/^## (.+)$/gm)].map((m) => m[1]);
    expect(headings).toEqual(
      expect.arrayContaining([
        "Quick start",
        "A tour",
        "Configuration for production",
        "Connect an MCP client",
        "Switching from fal",
        "Where to read more",
      ]),
    );
  });
});

describe("links", () => {
  test.each(markdown)("every relative link of %s names an existing file (and heading)", (file) => {
    const broken = links(file).filter(({ target, anchor }) => {
      if (!existsSync(path.join(root, target))) return true;
      if (!anchor || !target.endsWith(".md")) return false;
      const headings = [...read(target).matchAll(/^#+ (.+)$/gm)].map((m) => anchorOf(m[1]!));
      return !headings.includes(anchor);
    });
    expect(broken).toEqual([]);
  });
});

describe("AGENTS.md", () => {
  test("the table of where each concern lives has a row for every folder of lib/", () => {
    const agents = read("AGENTS.md");
    const folders = readdirSync(path.join(root, "lib")).filter((name) => statSync(path.join(root, "lib", name)).isDirectory());
    expect(folders.length).toBeGreaterThan(10);
    expect(folders.filter((name) => !agents.includes(`| \`lib/${name}/\` |`))).toEqual([]);
  });
});
