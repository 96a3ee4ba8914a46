/**
 * A same-site path to return to after sign-in. next-auth sends an absolute callbackUrl on this
 * host; anything on another host (or `//x`, `javascript:`) becomes "/".
 */
export function safeCallbackPath(value: string | undefined | null, ownHost = "localhost"): string {
  if (!value) return "/";
  try {
    const url = new URL(value, `http://${ownHost}`);
    if (url.host !== ownHost || !["http:", "https:"].includes(url.protocol)) return "/";
    if (url.pathname.startsWith("/signin") || url.pathname.startsWith("/signup")) return "/";
    return `${url.pathname}${url.search}${url.hash}`;
  } catch {
    return "/";
  }
}
