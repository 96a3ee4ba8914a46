import type { NextConfig } from "next";

/**
 * Sent with everything Next.js serves, static files included. The Content-Security-Policy needs a
 * nonce per request and comes from proxy.ts; Strict-Transport-Security depends on how the request
 * arrived and comes from servers/one-port-listener.ts; /v1 sets its own in lib/api/app.ts.
 */
const SECURITY_HEADERS = [
  { key: "X-Content-Type-Options", value: "nosniff" },
  { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
  {
    key: "Permissions-Policy",
    value: "camera=(), microphone=(), geolocation=(), payment=(), usb=(), accelerometer=(), gyroscope=(), magnetometer=(), display-capture=()",
  },
  // For browsers that predate the CSP's frame-ancestors 'none'.
  { key: "X-Frame-Options", value: "DENY" },
];

const nextConfig: NextConfig = {
  // The embedded database and the Postgres driver are Node-only; keep them out of the bundle.
  serverExternalPackages: ["@electric-sql/pglite", "postgres", "@node-rs/bcrypt"],
  poweredByHeader: false,
  typedRoutes: false,
  // `npm test` runs `npm run typecheck` first: next typegen and tsc over the files this build would
  // check (.next/types/validator.ts included), so its e2e build does not check them again (33 s).
  typescript: { ignoreBuildErrors: process.env.TYPECHECK_DONE === "1" },
  headers: async () => [{ source: "/:path*", headers: SECURITY_HEADERS }],
};

export default nextConfig;
