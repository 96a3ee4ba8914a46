import { plainHttpAllowed } from "@/lib/webhooks/endpoint-url";

/**
 * What an OpenID issuer may be (docs/features/sso.md#the-connection): an https:// URL without a
 * query or fragment (OpenID Connect Discovery §2); plain http only where a webhook may use it
 * (lib/webhooks/endpoint-url.ts: this machine while developing, or WEBHOOK_ALLOW_PRIVATE). Whether
 * it answers as an issuer is checked when the connection is saved (./issuer-check.ts).
 */
export const ISSUER_URL_MAX = 2048;

/** What is wrong with `text` as an issuer, or null. */
export function issuerUrlProblem(text: string): string | null {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return "Enter the issuer's full URL, such as https://login.example.com.";
  }
  if (url.username || url.password) return "Remove the user name and password from the URL.";
  if (url.search || url.hash || text.endsWith("?") || text.endsWith("#")) return "An issuer has no ?query or #fragment: enter it as your provider gives it.";
  // A discovery document's own address would skip the check that it names this issuer.
  if (url.pathname.includes("/.well-known/")) return "Enter the issuer itself, without /.well-known/openid-configuration.";
  if (url.protocol === "https:") return null;
  if (url.protocol !== "http:") return "Use an https:// URL.";
  return plainHttpAllowed(url) ? null : "Use an https:// URL: plain http:// is accepted only for localhost during development.";
}
