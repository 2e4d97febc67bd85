import type { NextConfig } from "next";
import createNextIntlPlugin from "next-intl/plugin";

const nextConfig: NextConfig = {
  // CI runs `tsc --noEmit` on its own just before building; the build need not check types twice.
  typescript: { ignoreBuildErrors: process.env.TYPES_ALREADY_CHECKED === "1" },
  // These run in Node only (WASM Postgres, native image codec, socket server): never bundle them.
  // prom-client too: loaded once from node_modules, every route shares its module state.
  serverExternalPackages: ["@electric-sql/pglite", "@electric-sql/pglite-socket", "sharp", "postgres", "inngest", "prom-client"],
  poweredByHeader: false,
  experimental: {
    // Next keeps a copy of the body of every request proxy.ts sees (pages, server actions, Auth.js,
    // /pay/local), 10 MB by default, while the upload lasts, and hands on only that much. They take
    // small forms (a server action's own limit is 1 MB): 1 MiB. The API skips the proxy, except
    // paths with a percent-escape, whose bodies past 1 MiB arrive cut (and fail as invalid JSON).
    proxyClientMaxBodySize: 1024 * 1024,
  },
  typedRoutes: false,
  // proxy.ts answers a trailing slash: an empty id on the API (400 in the envelope, not a 308 to
  // another route), a 308 to the URL without it on pages, as Next.js would.
  skipTrailingSlashRedirect: true,
  // Every response, the API's included: its bodies are only ever what their Content-Type says.
  // The pages' other security headers depend on the configuration and are set by proxy.ts.
  async headers() {
    return [{ source: "/:path*", headers: [{ key: "X-Content-Type-Options", value: "nosniff" }] }];
  },
};

// next-intl: the locale and messages of each request (lib/i18n/request.ts).
export default createNextIntlPlugin("./lib/i18n/request.ts")(nextConfig);
