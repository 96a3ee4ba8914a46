import "server-only";
import { headers } from "next/headers";

/**
 * The address clients call, as this request reached us. Behind a proxy of ours (TRUST_PROXY=true)
 * that is its X-Forwarded-Host and -Proto; otherwise those headers are the client's own words
 * and the Host header decides.
 */
export async function publicBaseUrl(): Promise<string> {
  if (process.env.PUBLIC_BASE_URL) return process.env.PUBLIC_BASE_URL.replace(/\/$/, "");
  const h = await headers();
  const trustProxy = process.env.TRUST_PROXY === "true";
  const host = (trustProxy && h.get("x-forwarded-host")) || h.get("host") || "localhost:3000";
  const proto = (trustProxy && h.get("x-forwarded-proto")) || (/^(localhost|127\.|\[::1\])/.test(host) ? "http" : "https");
  return `${proto}://${host}`;
}
