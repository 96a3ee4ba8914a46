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

/**
 * next-auth's redirects within this site go out as paths (`/signin?error=…`, not
 * `http://localhost:3000/signin?error=…`): a browser resolves a relative Location against the
 * address it called (RFC 9110 §10.2.2), which no header we are sent names for certain, as a proxy
 * of the operator's may call us as localhost:PORT with nothing forwarded. `ownOrigins` are the
 * names this request reached us by; a redirect elsewhere, or one whose path would read as another
 * host (`//…`), keeps its origin.
 */
export function ownRedirectsAsPaths(response: Response, ownOrigins: readonly string[]): Response {
  const location = response.headers.get("location");
  if (!location || !URL.canParse(location)) return response;
  const target = new URL(location);
  if (!ownOrigins.includes(target.origin) || target.pathname.startsWith("//")) return response;
  const headers = new Headers(response.headers);
  headers.set("location", `${target.pathname}${target.search}${target.hash}`);
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}
