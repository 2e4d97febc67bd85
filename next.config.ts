import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // These run in Node only (WASM Postgres, native image codec, socket server): never bundle them.
  serverExternalPackages: ["@electric-sql/pglite", "@electric-sql/pglite-socket", "sharp", "postgres", "inngest"],
  poweredByHeader: false,
  typedRoutes: false,
};

export default nextConfig;
