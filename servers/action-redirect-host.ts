import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";

/** The Host a request arrived with, behind this process's secret (see below). */
const CARRIED_HOST = "x-invoicing-host";

type HandleNext = (req: IncomingMessage, res: ServerResponse) => unknown;

/**
 * Next.js answers a server action that redirects (sign-up, accepting an invitation) with the page
 * it redirects to, rendered by fetching that page from this same server, at its internal address
 * (http://localhost:PORT), with the action request's headers. `fetch` cannot send a Host header, so
 * that page saw the internal address where the browser's belongs, and showed it as the API's base
 * address (lib/base-url.ts) until a reload.
 *
 * Every request Next.js receives from outside carries its own Host in a header stamped with a
 * secret of this server (a client's own header of that name is replaced); a request that comes
 * back with the stamp is Next.js's own, and gets the Host of the request it was made for. The
 * secret is derived from AUTH_SECRET, which every worker shares: the page's request comes back
 * through the public port and may reach another worker than the action's.
 */
export function keepHostThroughActionRedirects(handleNext: HandleNext): HandleNext {
  const authSecret = process.env.AUTH_SECRET;
  const secret = authSecret ? createHmac("sha256", authSecret).update("action redirect host").digest("hex").slice(0, 32) : randomBytes(16).toString("hex");
  return (req, res) => {
    const carried = hostCarriedUnder(secret, req.headers[CARRIED_HOST]);
    if (carried !== null) req.headers.host = carried;
    else if (req.headers.host) req.headers[CARRIED_HOST] = `${secret} ${req.headers.host}`;
    else delete req.headers[CARRIED_HOST];
    return handleNext(req, res);
  };
}

function hostCarriedUnder(secret: string, header: string | string[] | undefined): string | null {
  if (typeof header !== "string" || header.length <= secret.length + 1 || header[secret.length] !== " ") return null;
  const stamped = timingSafeEqual(Buffer.from(header.slice(0, secret.length)), Buffer.from(secret));
  return stamped ? header.slice(secret.length + 1) : null;
}
