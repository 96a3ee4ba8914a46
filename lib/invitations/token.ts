import { createHash } from "node:crypto";
import { randomBase62 } from "@/core/base62";
import { INVITATION_TOKEN_PREFIX, INVITATION_TOKEN_RANDOM_LENGTH } from "./link";

/** A new invitation token and what is stored of it: its SHA-256, as for API keys. The token is shown once. */
export function mintInvitationToken(): { token: string; hash: string } {
  const token = `${INVITATION_TOKEN_PREFIX}${randomBase62(INVITATION_TOKEN_RANDOM_LENGTH)}`;
  return { token, hash: hashInvitationToken(token) };
}

export function hashInvitationToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}
