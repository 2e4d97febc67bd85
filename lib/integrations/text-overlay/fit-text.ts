import { inkWidth, MEASURE_FONT_SIZE } from "./measure-text";
import type { TextStyle } from "./svg-text";

export type FitOptions = {
  fontWeight: TextStyle["fontWeight"];
  /** The width every line must fit in, px. */
  maxWidth: number;
  /** Preferred largest and smallest font sizes, px; below minFont the text wraps onto another line. */
  maxFont: number;
  minFont: number;
  maxLines: number;
};

export type FittedText = { lines: string[]; style: TextStyle };

/** Words longer than this are cut into pieces, so one endless word cannot shrink the text to nothing. */
const LONGEST_WORD = 24;

export function splitWords(text: string): string[] {
  return text
    .split(/\s+/)
    .filter(Boolean)
    .flatMap((w) => (w.length <= LONGEST_WORD ? [w] : (w.match(new RegExp(`.{1,${LONGEST_WORD - 4}}`, "gu")) ?? [w])));
}

/**
 * Chooses line breaks and a font size for one piece of text: the largest size up to maxFont at
 * which it fits maxWidth on as few lines as possible; when even maxLines lines need a size below
 * minFont, the size keeps shrinking (the text must stay whole), never below half of minFont.
 * Widths come from real renders (inkWidth), then the result is measured once more and scaled
 * down if kerning made a line wider than the sum of its words.
 */
export async function fitText(text: string, o: FitOptions): Promise<FittedText> {
  const words = splitWords(text);
  const probe = { fontSize: MEASURE_FONT_SIZE, fontWeight: o.fontWeight };
  const widths = await Promise.all(words.map((w) => inkWidth(w, probe)));
  const space = Math.max(0, (await inkWidth("H H", probe)) - (await inkWidth("HH", probe)));

  let chosen: { lines: string[]; fontSize: number } | undefined;
  for (let n = 1; n <= Math.min(o.maxLines, words.length); n++) {
    const { lines, widest } = balancedLines(words, widths, space, n);
    const fontSize = Math.min(o.maxFont, (o.maxWidth * MEASURE_FONT_SIZE) / Math.max(widest, 1));
    chosen = { lines, fontSize };
    if (fontSize >= o.minFont) break;
  }
  chosen ??= { lines: [words.join(" ")], fontSize: o.maxFont };
  let fontSize = Math.max(chosen.fontSize, o.minFont / 2);

  const measured = await Promise.all(chosen.lines.map((l) => inkWidth(l, { fontSize, fontWeight: o.fontWeight })));
  const widest = Math.max(...measured);
  if (widest > o.maxWidth) fontSize = Math.max(1, Math.floor(fontSize * (o.maxWidth / widest) * 100) / 100);
  return { lines: chosen.lines, style: { fontSize, fontWeight: o.fontWeight } };
}

/** Splits words into exactly `n` lines so that the widest line is as narrow as possible. */
function balancedLines(words: string[], widths: number[], space: number, n: number): { lines: string[]; widest: number } {
  const lineWidth = (from: number, to: number) => {
    let w = 0;
    for (let i = from; i < to; i++) w += widths[i]! + (i > from ? space : 0);
    return w;
  };
  // best[k][i]: the narrowest "widest line" that puts the first i words on k lines.
  const best: number[][] = Array.from({ length: n + 1 }, () => new Array<number>(words.length + 1).fill(Infinity));
  const cut: number[][] = Array.from({ length: n + 1 }, () => new Array<number>(words.length + 1).fill(0));
  best[0]![0] = 0;
  for (let k = 1; k <= n; k++) {
    for (let i = k; i <= words.length; i++) {
      for (let j = k - 1; j < i; j++) {
        const cost = Math.max(best[k - 1]![j]!, lineWidth(j, i));
        if (cost < best[k]![i]!) {
          best[k]![i] = cost;
          cut[k]![i] = j;
        }
      }
    }
  }
  const lines: string[] = [];
  for (let k = n, i = words.length; k > 0; k--) {
    const j = cut[k]![i]!;
    lines.unshift(words.slice(j, i).join(" "));
    i = j;
  }
  return { lines, widest: best[n]![words.length]! };
}
