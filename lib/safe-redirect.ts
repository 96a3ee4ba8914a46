/**
 * A path of this site to return to after sign-in, or "/". Takes a path, or an absolute URL on
 * this host. The answer is the URL parser's normalised path (backslashes become slashes, dot
 * segments go), and never one a browser would read as another host: `/.//evil.example/x`
 * normalises to `//evil.example/x`, which as a Location leaves the site.
 */
export function safeCallbackPath(value: string | undefined | null, ownHost = "localhost"): string {
  if (!value) return "/";
  try {
    const url = new URL(value, `http://${ownHost}`);
    if (url.host !== ownHost || !["http:", "https:"].includes(url.protocol)) return "/";
    if (url.pathname.startsWith("//")) return "/";
    if (url.pathname.startsWith("/signin") || url.pathname.startsWith("/signup")) return "/";
    return `${url.pathname}${url.search}${url.hash}`;
  } catch {
    return "/";
  }
}
