/**
 * Writes the seed catalog's thumbnails (small SVGs) into public/thumbnails. Run once after adding
 * a model and commit the files: `npx tsx lib/catalog/seed/thumbnails.ts`.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { seedModels } from "./data";
import { thumbnailPath } from "./types";

const palettes: Record<string, [string, string]> = {
  "text-to-image": ["#6366f1", "#ec4899"],
  "image-to-image": ["#8b5cf6", "#06b6d4"],
  "text-to-video": ["#f97316", "#e11d48"],
  "image-to-video": ["#f59e0b", "#db2777"],
  "text-to-speech": ["#10b981", "#0ea5e9"],
  "speech-to-text": ["#14b8a6", "#6366f1"],
  "text-to-audio": ["#22c55e", "#a855f7"],
  music: ["#d946ef", "#f43f5e"],
  "voice-cloning": ["#0ea5e9", "#22d3ee"],
  embedding: ["#64748b", "#0f172a"],
  "3d": ["#0d9488", "#4338ca"],
};

/** A simple glyph per modality, drawn in white at low opacity. */
const glyphs: Record<string, string> = {
  image:
    '<rect x="150" y="40" width="80" height="64" rx="8"/><circle cx="172" cy="62" r="8" fill="#fff"/><path d="M156 98l22-22 14 14 12-10 22 18z" fill="#fff"/>',
  video: '<rect x="146" y="44" width="70" height="56" rx="8"/><path d="M216 62l20-12v44l-20-12z" fill="#fff"/>',
  audio: '<path d="M150 72h8M166 56v32M182 44v56M198 60v24M214 50v44M230 66v12" stroke="#fff" stroke-width="6" stroke-linecap="round"/>',
  vector: '<path d="M150 90l24-40 24 28 16-20 20 32" stroke="#fff" stroke-width="6" fill="none" stroke-linejoin="round"/>',
  cube: '<path d="M190 40l36 20v40l-36 20-36-20V60z" stroke="#fff" stroke-width="5" fill="none"/><path d="M154 60l36 20 36-20M190 80v40" stroke="#fff" stroke-width="5" fill="none"/>',
};

const glyphFor = (category: string) =>
  category.includes("video")
    ? glyphs.video
    : category.includes("image")
      ? glyphs.image
      : category === "3d"
        ? glyphs.cube
        : category === "embedding"
          ? glyphs.vector
          : glyphs.audio;

const escape = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

export function thumbnailSvg(m: { modelId: string; displayName: string; category: string; modelLab: string | null }): string {
  const [from, to] = palettes[m.category] ?? ["#475569", "#1e293b"];
  const name = m.displayName.length > 24 ? `${m.displayName.slice(0, 23)}…` : m.displayName;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="256" height="160" viewBox="0 0 256 160" role="img" aria-label="${escape(m.displayName)}">
<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/></linearGradient></defs>
<rect width="256" height="160" fill="url(#g)"/>
<g fill="#fff" fill-opacity=".25" stroke-opacity=".5">${glyphFor(m.category)}</g>
<text x="16" y="132" font-family="system-ui,-apple-system,Segoe UI,Roboto,sans-serif" font-size="15" font-weight="600" fill="#fff">${escape(name)}</text>
<text x="16" y="150" font-family="system-ui,-apple-system,Segoe UI,Roboto,sans-serif" font-size="11" fill="#fff" fill-opacity=".8">${escape(m.modelLab ?? "Community")} · ${escape(m.category)}</text>
</svg>
`;
}

if (process.argv[1]?.endsWith("thumbnails.ts")) {
  const out = path.join(process.cwd(), "public");
  mkdirSync(path.join(out, "thumbnails"), { recursive: true });
  for (const m of seedModels) writeFileSync(path.join(out, thumbnailPath(m.modelId)), thumbnailSvg(m));
  console.log(`wrote ${seedModels.length} thumbnails`);
}
