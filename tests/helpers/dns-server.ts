import dgram from "node:dgram";
import type { AddressInfo } from "node:net";
import * as dnsPacket from "dns-packet";

/**
 * A DNS server on 127.0.0.1 for the domain verification's lookups (docs/features/sso.md#domains),
 * which SSO_DNS_SERVERS points at: it answers TXT questions from `txt`, which the test sets (a name,
 * lower case, to its records), and NXDOMAIN for any other name. `questions` keeps what was asked.
 */
export class DnsServer {
  readonly txt = new Map<string, string[]>();
  readonly questions: string[] = [];
  private socket = dgram.createSocket("udp4");
  /** `host:port`, as SSO_DNS_SERVERS takes it. */
  address = "";

  /** Listens on `port` of 127.0.0.1, any free one by default. */
  async start(port = 0): Promise<void> {
    this.socket.on("message", (message, peer) => {
      const reply = this.answer(dnsPacket.decode(message));
      this.socket.send(reply, peer.port, peer.address);
    });
    await new Promise<void>((resolve) => this.socket.bind(port, "127.0.0.1", resolve));
    this.address = `127.0.0.1:${(this.socket.address() as AddressInfo).port}`;
  }

  private answer(query: dnsPacket.DecodedPacket): Buffer {
    const questions = query.questions ?? [];
    const answers: dnsPacket.Answer[] = [];
    let known = false;
    for (const question of questions) {
      this.questions.push(`${question.type} ${question.name}`);
      const records = this.txt.get(question.name.toLowerCase());
      if (records === undefined) continue;
      known = true;
      if (question.type === "TXT") for (const data of records) answers.push({ type: "TXT", name: question.name, ttl: 60, data });
    }
    // The response code is the flags' low 4 bits: 3 is NXDOMAIN, a name that does not exist.
    const flags = dnsPacket.AUTHORITATIVE_ANSWER | ((query.flags ?? 0) & dnsPacket.RECURSION_DESIRED) | (known ? 0 : 3);
    return dnsPacket.encode({ type: "response", id: query.id, flags, questions, answers });
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.socket.close(() => resolve()));
  }
}
