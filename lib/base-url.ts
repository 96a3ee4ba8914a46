import "server-only";
import { headers } from "next/headers";
import { configuredBaseUrl } from "@/lib/link-base";

/**
 * The address clients call, as this request reached us. Behind a proxy of ours (TRUST_PROXY=true)
 * that is its X-Forwarded-Host and -Proto; otherwise those headers are the client's own words
 * and the Host header decides.
 */
export async function publicBaseUrl(): Promise<string> {
  return configuredBaseUrl() || requestOrigin();
}

/**
 * The origin this request reached us on, whatever PUBLIC_BASE_URL says: the dashboard's own, which
 * a passkey is bound to (lib/auth/passkeys.ts).
 */
export async function requestOrigin(): Promise<string> {
  const h = await headers();
  const trustProxy = process.env.TRUST_PROXY === "true";
  const host = (trustProxy && h.get("x-forwarded-host")) || h.get("host") || "localhost:3000";
  const proto = (trustProxy && h.get("x-forwarded-proto")) || (/^(localhost|127\.|\[::1\])/.test(host) ? "http" : "https");
  return `${proto}://${host}`;
}
