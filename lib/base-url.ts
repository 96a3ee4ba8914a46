import "server-only";
import { headers } from "next/headers";
import { configuredBaseUrl } from "@/lib/link-base";

/**
 * The address clients call, as this request reached us. Behind a proxy of ours (TRUST_PROXY=true)
 * that is its X-Forwarded-Host and -Proto; otherwise those headers are the client's own words
 * and the Host header decides.
 */
export async function publicBaseUrl(): Promise<string> {
  const configured = configuredBaseUrl();
  if (configured) return configured;
  const h = await headers();
  const trustProxy = process.env.TRUST_PROXY === "true";
  const host = (trustProxy && h.get("x-forwarded-host")) || h.get("host") || "localhost:3000";
  const proto = (trustProxy && h.get("x-forwarded-proto")) || (/^(localhost|127\.|\[::1\])/.test(host) ? "http" : "https");
  return `${proto}://${host}`;
}
