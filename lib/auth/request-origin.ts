import { NextRequest } from "next/server";

/**
 * next-auth's route handlers (/api/auth/*) build their redirects, forms and callback checks from
 * the request's URL, whose origin Next.js takes from server.ts's `next({ hostname, port })`:
 * http://localhost:PORT, whatever host the client called. This puts the request on the origin the
 * client called, read as next-auth's server actions and proxy.ts already read it (X-Forwarded-Host,
 * else Host; X-Forwarded-Proto), so the cookies' names (`__Secure-` over HTTPS) agree with theirs.
 * server.ts's listener keeps X-Forwarded-* only from a proxy of ours (TRUST_PROXY); otherwise
 * Next.js fills them in from the Host header and the socket.
 */
export function onRequestOrigin(request: NextRequest): NextRequest {
  const host = request.headers.get("x-forwarded-host") ?? request.headers.get("host");
  const proto = request.headers.get("x-forwarded-proto")?.split(",")[0]?.trim() === "https" ? "https" : "http";
  const origin = `${proto}://${host}`;
  // No usable host (a bare HTTP/1.0 request): the URL Next.js gave stays.
  if (!host || !URL.canParse(origin)) return request;
  const { pathname, search } = request.nextUrl;
  return new NextRequest(new URL(`${pathname}${search}`, origin), request);
}
