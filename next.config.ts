import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // The embedded database and the Postgres driver are Node-only; keep them out of the bundle.
  serverExternalPackages: ["@electric-sql/pglite", "postgres", "@node-rs/bcrypt"],
  poweredByHeader: false,
  typedRoutes: false,
};

export default nextConfig;
