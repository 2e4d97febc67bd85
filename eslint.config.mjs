import webVitals from "eslint-config-next/core-web-vitals";
import typescript from "eslint-config-next/typescript";

// `instanceof` only on the platform's own classes: the production build copies our modules (and
// bundled libraries) into several server chunks, so an object made by one copy fails `instanceof`
// against another copy's class. Brand a class family instead (lib/core/brand.ts) and check its guard.
const PLATFORM_CLASSES = [
  "Error",
  "TypeError",
  "RangeError",
  "SyntaxError",
  "DOMException",
  "AggregateError",
  "Object",
  "Array",
  "Date",
  "RegExp",
  "Map",
  "Set",
  "Promise",
  "ArrayBuffer",
  "Uint8Array",
  "Buffer",
  "Blob",
  "File",
  "FormData",
  "Headers",
  "Request",
  "Response",
  "URL",
  "URLSearchParams",
  "ReadableStream",
  "Readable",
  "AbortSignal",
  "Element",
  "HTMLElement",
  "HTMLInputElement",
  "HTMLImageElement",
  "Node",
];
const crossBundleInstanceof = {
  selector: `BinaryExpression[operator='instanceof']:not([right.type='Identifier'][right.name=/^(${PLATFORM_CLASSES.join("|")})$/])`,
  message:
    "instanceof fails across server bundles in the production build: use the family's brand guard (lib/core/brand.ts), e.g. isDomainError(err), isProviderUnavailable(err), or drizzle's is().",
};

const config = [
  ...webVitals,
  ...typescript,
  {
    files: ["**/*.ts", "**/*.tsx"],
    ignores: ["**/*.test.ts", "test/**", "e2e/**", "bench/**"],
    rules: { "no-restricted-syntax": ["error", crossBundleInstanceof] },
  },
  {
    // Tests read loosely-typed JSON bodies on purpose; production code may not.
    files: ["**/*.test.ts", "test/**/*.ts", "e2e/**/*.ts", "bench/**/*.ts"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
  { ignores: [".next/**", "node_modules/**", "data/**", "drizzle/**", "playwright-report/**", "test-results/**"] },
];

export default config;
