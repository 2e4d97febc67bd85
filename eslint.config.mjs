import webVitals from "eslint-config-next/core-web-vitals";
import typescript from "eslint-config-next/typescript";

export default [
  ...webVitals,
  ...typescript,
  { ignores: [".next/**", "node_modules/**", "data/**", "drizzle/**", "playwright-report/**", "test-results/**"] },
];
