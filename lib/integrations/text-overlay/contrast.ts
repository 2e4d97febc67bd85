/** WCAG relative luminance of an sRGB grey level (0–255). */
function relativeLuminance(level: number): number {
  const c = level / 255;
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
}

/** WCAG contrast ratio between two grey levels (1–21). */
export function contrastRatio(a: number, b: number): number {
  const [hi, lo] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

export type BandStats = { mean: number; stdev: number };

/** Luma (Rec. 709) mean and deviation of rows [top, bottom) of a raw RGB image. */
export function bandStats(rgb: Buffer, side: number, top: number, bottom: number): BandStats {
  let sum = 0;
  let sq = 0;
  let n = 0;
  // Every second pixel of every second row: plenty for a mean and a deviation, a quarter of the work.
  for (let y = Math.max(0, top); y < Math.min(side, bottom); y += 2) {
    for (let x = 0; x < side; x += 2) {
      const i = (y * side + x) * 3;
      const l = 0.2126 * rgb[i]! + 0.7152 * rgb[i + 1]! + 0.0722 * rgb[i + 2]!;
      sum += l;
      sq += l * l;
      n++;
    }
  }
  const mean = n ? sum / n : 0;
  return { mean, stdev: n ? Math.sqrt(Math.max(0, sq / n - mean * mean)) : 0 };
}

export const TARGET_CONTRAST = 4.5;

/**
 * Text colour and scrim for a band: light text on dark-ish backgrounds, dark text on light ones.
 * The scrim (a gradient of the opposite colour under the text) is made just opaque enough that
 * even the band's pixels nearest to the text colour (mean ± one deviation) reach WCAG AA contrast
 * (4.5:1) against the text, and never fully hides the picture.
 */
export function chooseInk(stats: BandStats): { text: number; scrim: number; scrimOpacity: number } {
  const light = stats.mean < 150;
  const text = light ? 255 : 17;
  const scrim = light ? 0 : 255;
  const worst = light ? Math.min(255, stats.mean + stats.stdev) : Math.max(0, stats.mean - stats.stdev);
  let opacity = 0.25;
  while (opacity < 0.85 && contrastRatio(text, worst * (1 - opacity) + scrim * opacity) < TARGET_CONTRAST) opacity += 0.05;
  return { text, scrim, scrimOpacity: Math.round(opacity * 100) / 100 };
}
