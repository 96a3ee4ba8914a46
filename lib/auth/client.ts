/** Who is on the other end of a request, as sign-in throttling and the sessions table record it. */
export interface Client {
  ip: string;
  userAgent: string | null;
}

/** server.ts sets X-Forwarded-For from the socket unless TRUST_PROXY says a proxy of ours does. */
export function clientOf(headers: Headers): Client {
  return {
    ip: headers.get("x-forwarded-for")?.split(",")[0]?.trim() || "unknown",
    userAgent: headers.get("user-agent"),
  };
}
