import { createHash, randomBytes } from "node:crypto";
import { redeemSsoTicket } from "@/db/queries/sso-sign-in";

/**
 * The ticket a finished sign-in through an organization's provider leaves (docs/features/sso.md#signing-in):
 * 32 random bytes, kept by their hash, exchanged once for a session within a minute.
 */

/** A new ticket and what is stored of it. */
export function mintSsoTicket(): { ticket: string; hash: string } {
  const ticket = randomBytes(32).toString("base64url");
  return { ticket, hash: hashSsoTicket(ticket) };
}

function hashSsoTicket(ticket: string): string {
  return createHash("sha256").update(ticket).digest("hex");
}

/** The person and organization of a ticket, once; null for anything else. */
export async function redeemSsoSignIn(ticket: unknown): Promise<{ userId: string; orgId: string } | null> {
  if (typeof ticket !== "string" || !/^[A-Za-z0-9_-]{43}$/.test(ticket)) return null;
  return redeemSsoTicket(hashSsoTicket(ticket));
}
