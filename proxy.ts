import NextAuth from "next-auth";
import { NextResponse, type NextFetchEvent, type NextRequest } from "next/server";
import { authConfig, HALF_SESSION_HEADER } from "@/lib/auth/config";
import { REQUEST_PATH_HEADER } from "@/lib/request-path";

const { auth } = NextAuth(authConfig);
const authorize = auth as unknown as (request: NextRequest, event: NextFetchEvent) => Promise<Response>;

/**
 * The page's Content-Security-Policy: scripts only with this request's nonce (Next.js reads it from
 * the request's CSP header and puts it on its own scripts; 'strict-dynamic' trusts what they load).
 * Styles may be inline: Radix, Recharts and Sonner set style attributes and inject <style>
 * elements without a nonce, and a style cannot run script. Eval only where something needs it:
 * React's development tools, and the API reference, whose bundled zod probes for `new Function`.
 */
function contentSecurityPolicy(nonce: string, pathname: string): string {
  const allowEval = process.env.NODE_ENV === "development" || pathname === "/docs";
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${allowEval ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' blob: data:",
    "font-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/**
 * Every page gets a fresh nonce and its CSP (the other security headers are in next.config.ts).
 * Signed-out visitors go to /signin?callbackUrl=… (next-auth's `authorized` callback decides).
 */
export async function proxy(request: NextRequest, event: NextFetchEvent) {
  const nonce = Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString("base64");
  const csp = contentSecurityPolicy(nonce, request.nextUrl.pathname);
  const decision = await authorize(request, event);
  let response = decision;
  if (!decision.headers.has("location")) {
    // Let through: render with the CSP on the request too, where Next.js and app/docs find the nonce.
    const headers = new Headers(request.headers);
    headers.set("Content-Security-Policy", csp);
    headers.set("x-nonce", nonce);
    // Where a page that finds its session ended sends the visitor back to after sign-in (lib/sign-in-redirect.ts).
    headers.set(REQUEST_PATH_HEADER, `${request.nextUrl.pathname}${request.nextUrl.search}`);
    response = NextResponse.next({ request: { headers } });
    // A password step's cookie is not sent back: answered after the second step renewed the
    // session's id, it would replace the browser's new cookie with the old id (lib/auth/config.ts).
    if (!decision.headers.has(HALF_SESSION_HEADER)) for (const cookie of decision.headers.getSetCookie()) response.headers.append("Set-Cookie", cookie);
  }
  response.headers.set("Content-Security-Policy", csp);
  return response;
}

export const config = {
  // Not for static files (the icons are public), nor for /v1, which never reaches Next.js.
  matcher: ["/((?!_next/static|_next/image|favicon.ico|icon.svg|v1/).*)"],
};
