/** A same-site path to return to after sign-in; anything else (other hosts, `//x`) becomes "/". */
export function safeCallbackPath(value: string | undefined | null): string {
  if (!value) return "/";
  try {
    const url = new URL(value, "http://localhost");
    if (url.origin !== "http://localhost") return "/";
    if (url.pathname.startsWith("/signin") || url.pathname.startsWith("/signup")) return "/";
    return `${url.pathname}${url.search}${url.hash}`;
  } catch {
    return "/";
  }
}
