/**
 * Where an endpoint may point. HTTPS; plain http only to this machine while developing
 * (NODE_ENV is not production) or where private addresses are allowed (WEBHOOK_ALLOW_PRIVATE, the
 * tests). Where the name resolves is checked when the endpoint is saved and again at every
 * delivery (lib/webhooks/address-guard.ts).
 */
export const WEBHOOK_URL_MAX = 2048;

const LOCAL_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** What is wrong with `text` as an endpoint URL, or null. */
export function webhookUrlProblem(text: string): string | null {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return "Enter a full URL, such as https://example.com/webhooks.";
  }
  if (url.username || url.password) return "Remove the user name and password from the URL: the signature proves who sent the event.";
  if (url.hash) return "Remove the #fragment: it is never sent to a server.";
  if (url.protocol === "https:") return null;
  if (url.protocol !== "http:") return "Use an https:// URL.";
  return plainHttpAllowed(url) ? null : "Use an https:// URL: plain http:// is accepted only for localhost during development.";
}

/** Whether an http:// URL may be used: to this machine while developing, or anywhere private addresses are allowed. The OpenID issuer of single sign-on follows the same rule (lib/sso/issuer-url.ts). */
export function plainHttpAllowed(url: URL): boolean {
  const local = LOCAL_HOSTS.has(url.hostname) && process.env.NODE_ENV !== "production";
  return local || process.env.WEBHOOK_ALLOW_PRIVATE === "true";
}
