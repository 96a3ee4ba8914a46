import { createHmac, timingSafeEqual } from "node:crypto";
import { keyFromAuthSecret } from "@/core/derived-key";
import { NOTICE_KIND_VALUES, type NoticeKind } from "@/core/notifications";

/**
 * The signed one-click unsubscribe link of every email. The token names the person, the
 * organization and the kind of email, and carries an HMAC-SHA256 under a key derived from
 * AUTH_SECRET for this use alone, so it works without signing in and cannot be made for anyone
 * else. It does not expire: an unsubscribe link in an old email must still work (RFC 8058).
 */

export interface UnsubscribeSubject {
  orgId: string;
  userId: string;
  kind: NoticeKind;
}

const mac = (payload: string) => createHmac("sha256", keyFromAuthSecret("email unsubscribe link")).update(payload).digest("base64url");

export function unsubscribeToken(subject: UnsubscribeSubject): string {
  const payload = Buffer.from(JSON.stringify([subject.orgId, subject.userId, subject.kind])).toString("base64url");
  return `${payload}.${mac(payload)}`;
}

/** The subject of a token this server signed, or null for anything else. */
export function readUnsubscribeToken(token: string): UnsubscribeSubject | null {
  if (token.length > 512) return null;
  const [payload, signature, ...rest] = token.split(".");
  if (!payload || !signature || rest.length > 0) return null;
  const expected = Buffer.from(mac(payload));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  try {
    const [orgId, userId, kind] = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as unknown[];
    if (typeof orgId !== "string" || typeof userId !== "string" || !NOTICE_KIND_VALUES.includes(kind as NoticeKind)) return null;
    return { orgId, userId, kind: kind as NoticeKind };
  } catch {
    return null;
  }
}
