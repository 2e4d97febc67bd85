import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // These run in Node only (WASM Postgres, native image codec, socket server): never bundle them.
  // prom-client too: loaded once from node_modules, every route shares its module state.
  serverExternalPackages: ["@electric-sql/pglite", "@electric-sql/pglite-socket", "sharp", "postgres", "inngest", "prom-client"],
  poweredByHeader: false,
  typedRoutes: false,
};

export default nextConfig;
