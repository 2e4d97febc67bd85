import webVitals from "eslint-config-next/core-web-vitals";
import typescript from "eslint-config-next/typescript";

const config = [
  ...webVitals,
  ...typescript,
  {
    // Tests read loosely-typed JSON bodies on purpose; production code may not.
    files: ["**/*.test.ts", "test/**/*.ts", "e2e/**/*.ts", "bench/**/*.ts"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
  { ignores: [".next/**", "node_modules/**", "data/**", "drizzle/**", "playwright-report/**", "test-results/**"] },
];

export default config;
