import path from "node:path";

/** The family the overlay asks for; fonts.conf makes it the only one fontconfig knows. */
export const OVERLAY_FONT_FAMILY = "Inter";
export const OVERLAY_FONT_DIR = "node_modules/@expo-google-fonts/inter";

let configured = false;

/**
 * librsvg (inside sharp's libvips) finds fonts through fontconfig, which reads FONTCONFIG_FILE
 * once, when it first initialises in this process. So this runs before the first SVG with text is
 * rendered: it points fontconfig at fonts.conf beside this file, which lists the bundled Inter
 * font and nothing else. Paths resolve from the working directory, which is the project root for
 * `next start`, `next dev` and vitest alike.
 */
export function ensureOverlayFonts(): void {
  if (configured) return;
  process.env.FONTCONFIG_FILE = path.resolve(process.cwd(), "lib/integrations/text-overlay/fonts.conf");
  configured = true;
}
