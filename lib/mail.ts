import "server-only";
import nodemailer from "nodemailer";
import type { Role } from "@/core/enums";
import { ROLE_INFO } from "@/lib/roles";

/** An SMTP exchange is given this long at each step: the invitation waits on it. */
const SMTP_TIMEOUT_MS = 5_000;

/** Sent; not sent because no SMTP server is configured; or refused, with the server's reason. */
export type MailOutcome = { status: "sent" } | { status: "off" } | { status: "failed"; reason: string };

/**
 * SPEC §12: the invitation link by email, only when SMTP_URL is set (`smtp://user:pass@host:587`,
 * `smtps://…` for implicit TLS); MAIL_FROM names the sender. Without it, or when the server
 * refuses, the link is only shown to the inviter to copy, and the outcome says why.
 */
export async function mailInvitation(invitation: { to: string; orgName: string; inviterName: string; role: Role; url: string; expiresAt: Date }): Promise<MailOutcome> {
  const smtpUrl = process.env.SMTP_URL;
  if (!smtpUrl) return { status: "off" };
  const transport = nodemailer.createTransport(smtpUrl, { connectionTimeout: SMTP_TIMEOUT_MS, greetingTimeout: SMTP_TIMEOUT_MS, socketTimeout: SMTP_TIMEOUT_MS });
  const { to, orgName, inviterName, role, url, expiresAt } = invitation;
  try {
    await transport.sendMail({
      from: process.env.MAIL_FROM ?? "Invoicing <no-reply@localhost>",
      to,
      subject: `${inviterName} invited you to ${orgName}`,
      text: [
        `${inviterName} invited you to join ${orgName} as ${ROLE_INFO[role].withArticle}.`,
        "",
        `Accept the invitation: ${url}`,
        "",
        `The link works once, until ${expiresAt.toISOString().slice(0, 16).replace("T", " ")} UTC, and only for ${to}.`,
        "If you did not expect it, ignore this email.",
      ].join("\n"),
    });
    return { status: "sent" };
  } catch (error) {
    // Not lost: the inviter is shown the reason, with the link to send themselves.
    return { status: "failed", reason: error instanceof Error ? error.message : String(error) };
  } finally {
    transport.close();
  }
}
