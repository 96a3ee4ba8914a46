/** Who is on the other end of a request, as sign-in throttling and the sessions table record it. */
export interface Client {
  ip: string;
  userAgent: string | null;
}

/**
 * The dashboard is served by server.ts, whose listener leaves in X-Forwarded-For the client's one
 * address by lib/client-address.ts's rule (the same the /v1 gateway applies): the socket's, or the
 * entry proxies of ours vouch for under TRUST_PROXY. Anything the client wrote there is gone.
 */
export function clientOf(headers: Headers): Client {
  return {
    ip: headers.get("x-forwarded-for")?.trim() || "unknown",
    userAgent: headers.get("user-agent"),
  };
}
