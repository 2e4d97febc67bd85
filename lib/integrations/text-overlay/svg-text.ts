import { OVERLAY_FONT_FAMILY } from "./fontconfig";

export type TextStyle = { fontSize: number; fontWeight: 600 | 800 };

const XML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" };

/** User text inside SVG markup: XML-escaped, control characters dropped (they are invalid XML). */
export function escapeXml(text: string): string {
  return text.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, "").replace(/[&<>"']/g, (c) => XML_ESCAPES[c]!);
}

/** One `<text>` element; x/y is the anchor point on the baseline. */
export function svgText(text: string, style: TextStyle, at: { x: number; y: number; anchor: "start" | "middle" }, paint: string): string {
  return (
    `<text x="${round(at.x)}" y="${round(at.y)}" text-anchor="${at.anchor}" font-family="${OVERLAY_FONT_FAMILY}" ` +
    `font-weight="${style.fontWeight}" font-size="${round(style.fontSize)}" ${paint}>${escapeXml(text)}</text>`
  );
}

export const round = (n: number) => Math.round(n * 100) / 100;
