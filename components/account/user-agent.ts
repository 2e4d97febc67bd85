/**
 * A browser's User-Agent as a person reads it: "Chrome 131 on Windows", "Safari 17 on iPhone".
 * Only the common browsers and systems are named; anything else keeps its first product token
 * ("curl 8.5"), so nothing is invented. Order matters: Edge and Opera also say "Chrome", Chrome
 * also says "Safari".
 */
const BROWSERS: [RegExp, string][] = [
  [/Edg(?:e|A|iOS)?\/(\d+)/, "Edge"],
  [/(?:OPR|Opera)\/(\d+)/, "Opera"],
  [/YaBrowser\/(\d+)/, "Yandex Browser"],
  [/SamsungBrowser\/(\d+)/, "Samsung Internet"],
  [/(?:Firefox|FxiOS)\/(\d+)/, "Firefox"],
  [/(?:Chrome|CriOS|Chromium)\/(\d+)/, "Chrome"],
  [/Version\/(\d+)[.\d]* (?:Mobile\/\S+ )?Safari\//, "Safari"],
];

const SYSTEMS: [RegExp, string][] = [
  [/iPhone/, "iPhone"],
  [/iPad/, "iPad"],
  [/Android/, "Android"],
  [/Windows/, "Windows"],
  [/CrOS/, "ChromeOS"],
  [/Mac OS X|Macintosh/, "macOS"],
  [/Linux/, "Linux"],
];

export type Device = { browser: string | null; os: string | null };

export function deviceOf(userAgent: string | null | undefined): Device | null {
  const ua = userAgent?.trim();
  if (!ua) return null;
  let browser: string | null = null;
  for (const [re, name] of BROWSERS) {
    const m = re.exec(ua);
    if (m) {
      browser = `${name} ${m[1]}`;
      break;
    }
  }
  const os = SYSTEMS.find(([re]) => re.test(ua))?.[1] ?? null;
  if (!browser && !os) {
    const token = /^([A-Za-z][\w.-]*)\/(\d+(?:\.\d+)?)/.exec(ua);
    return token ? { browser: `${token[1]} ${token[2]}`, os: null } : { browser: ua.slice(0, 40), os: null };
  }
  return { browser, os };
}
