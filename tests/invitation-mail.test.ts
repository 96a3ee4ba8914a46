import { once } from "node:events";
import type { AddressInfo } from "node:net";
import { inArray } from "drizzle-orm";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inviteMemberAction } from "@/app/[orgSlug]/settings/members/actions";
import { getDb } from "@/db";
import { invitations } from "@/db/schema";
import { createTeam, form } from "./helpers/factories";
import { actAs } from "./helpers/session";

/**
 * A real SMTP server on 127.0.0.1 that keeps what it receives, and how many of the recipients'
 * invitations the database shows another connection at that moment.
 */
const received: { to: string[]; body: string; invitationsCommitted: number }[] = [];
let refuse = false;
const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ["STARTTLS"],
  onRcptTo(_address, _session, callback) {
    callback(refuse ? Object.assign(new Error("Mailbox unavailable"), { responseCode: 550 }) : undefined);
  },
  onData(stream, session, callback) {
    let body = "";
    stream.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
    stream.on("end", async () => {
      const to = session.envelope.rcptTo.map((rcpt) => rcpt.address);
      const committed = await getDb().select({ id: invitations.id }).from(invitations).where(inArray(invitations.email, to));
      received.push({ to, body, invitationsCommitted: committed.length });
      callback();
    });
  },
});

beforeAll(async () => {
  smtp.listen(0, "127.0.0.1");
  await once(smtp.server, "listening");
  process.env.SMTP_URL = `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  delete process.env.SMTP_URL;
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
});

describe("invitation mail (SMTP_URL set)", () => {
  it("mails the link to the invited email once the invitation is committed, and still shows it to the inviter", async () => {
    const team = await createTeam("pro");
    actAs(team.owner.id);
    const result = await inviteMemberAction(null, form({ orgId: team.org.id, email: "mailed@example.com", role: "member" }));
    expect(result).toMatchObject({ ok: true, data: { mail: { status: "sent" } } });
    if (!result.ok) return;
    const mail = received.find((message) => message.to.includes("mailed@example.com"))!;
    expect(mail.body).toContain(`Subject: ${team.owner.name} invited you to ${team.org.name}`);
    expect(mail.body.replace(/=\r?\n/g, "")).toContain(result.data.url);
    // Sent after the commit: the link works when it arrives, and no transaction waits on the SMTP server.
    expect(mail.invitationsCommitted).toBe(1);
  });

  it("says why when the server refuses, and the invitation stands with its link", async () => {
    const team = await createTeam("pro");
    actAs(team.owner.id);
    refuse = true;
    try {
      const result = await inviteMemberAction(null, form({ orgId: team.org.id, email: "bounced@example.com", role: "guest" }));
      expect(result).toMatchObject({ ok: true, data: { mail: { status: "failed", reason: expect.stringContaining("Mailbox unavailable") } } });
    } finally {
      refuse = false;
    }
  });
});
