import "server-only";
import type { SendMailOptions } from "nodemailer";
import type { Role } from "@/core/enums";
import { ROLE_INFO } from "@/lib/roles";

/** An SMTP exchange is given this long at each step: the invitation waits on it. */
const SMTP_TIMEOUT_MS = 5_000;

/** Sent; not sent because no SMTP server is configured; or refused, with the server's reason. */
export type MailOutcome = { status: "sent" } | { status: "off" } | { status: "failed"; reason: string };

/** A message as sendMail takes it, without the sender: every mail of the service comes from MAIL_FROM. */
export type Mail = Omit<SendMailOptions, "from">;

/**
 * Sends `mail` through SMTP_URL (`smtp://user:pass@host:587`, `smtps://…` for implicit TLS) from
 * MAIL_FROM; "off" when no SMTP server is configured, "failed" with the server's reason when it
 * refuses. Never inside a transaction: each step may wait SMTP_TIMEOUT_MS.
 */
export async function sendMail(mail: Mail): Promise<MailOutcome> {
  const smtpUrl = process.env.SMTP_URL;
  if (!smtpUrl) return { status: "off" };
  // Loaded by the first mail rather than by every module that can send one (docs/testing.md#ci).
  const { default: nodemailer } = await import("nodemailer");
  const transport = nodemailer.createTransport(smtpUrl, {
    connectionTimeout: SMTP_TIMEOUT_MS,
    greetingTimeout: SMTP_TIMEOUT_MS,
    socketTimeout: SMTP_TIMEOUT_MS,
  });
  try {
    await transport.sendMail({ from: process.env.MAIL_FROM ?? "Invoicing <no-reply@localhost>", ...mail });
    return { status: "sent" };
  } catch (error) {
    return { status: "failed", reason: error instanceof Error ? error.message : String(error) };
  } finally {
    transport.close();
  }
}

/**
 * The invitation link by email, only when SMTP_URL is set. Without it, or when the
 * server refuses, the link is only shown to the inviter to copy, and the outcome says why.
 */
export async function mailInvitation(invitation: {
  to: string;
  orgName: string;
  inviterName: string;
  role: Role;
  url: string;
  expiresAt: Date;
}): Promise<MailOutcome> {
  const { to, orgName, inviterName, role, url, expiresAt } = invitation;
  return sendMail({
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
}
