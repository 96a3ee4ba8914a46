import { once } from "node:events";
import type { AddressInfo } from "node:net";
import { simpleParser, type ParsedMail } from "mailparser";
import { SMTPServer } from "smtp-server";

/**
 * A real SMTP server on 127.0.0.1 that keeps every message it accepts, parsed; `refuse` makes it
 * refuse the next that many recipients with 550, as a full mailbox would.
 */
export class MailCatcher {
  readonly received: ParsedMail[] = [];
  refuse = 0;
  refused = 0;
  private readonly server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    onRcptTo: (_address, _session, callback) => {
      if (this.refuse > 0) {
        this.refuse--;
        this.refused++;
        return callback(Object.assign(new Error("Mailbox unavailable"), { responseCode: 550 }));
      }
      callback();
    },
    onData: (stream, _session, callback) => {
      simpleParser(stream).then(
        (mail) => {
          this.received.push(mail);
          callback();
        },
        (error: Error) => callback(error),
      );
    },
  });

  /** Starts listening and points SMTP_URL at it. */
  async start(): Promise<void> {
    this.server.listen(0, "127.0.0.1");
    await once(this.server.server, "listening");
    process.env.SMTP_URL = `smtp://127.0.0.1:${(this.server.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    delete process.env.SMTP_URL;
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  to(address: string): ParsedMail[] {
    return this.received.filter((mail) => [mail.to].flat().some((to) => to?.value.some((entry) => entry.address === address)));
  }
}
