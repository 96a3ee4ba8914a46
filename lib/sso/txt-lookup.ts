import "server-only";
import { Resolver } from "node:dns/promises";

/**
 * The DNS lookup behind "Verify" (docs/features/sso.md#domains): the TXT records of one name, asked
 * of the servers SSO_DNS_SERVERS lists (comma-separated, such as `1.1.1.1,8.8.8.8` or
 * `127.0.0.1:5353`), otherwise the system's. A resolver of our choice sees a new record as soon
 * as the domain's own servers have it, where the system's may have cached its absence; the tests
 * point it at a DNS server of their own.
 */

export type TxtAnswer = { kind: "found"; values: string[] } | { kind: "none" } | { kind: "failed"; code: string };

const TIMEOUT_MS = 3_000;
const TRIES = 2;

function resolver(): Resolver {
  const resolver = new Resolver({ timeout: TIMEOUT_MS, tries: TRIES });
  const servers = (process.env.SSO_DNS_SERVERS ?? "")
    .split(",")
    .map((server) => server.trim())
    .filter(Boolean);
  if (servers.length > 0) resolver.setServers(servers);
  return resolver;
}

/** The TXT records at `name`, each one string (a record's several strings joined, as RFC 7208 reads them); none when the name or its TXT records do not exist. */
export async function lookUpTxt(name: string): Promise<TxtAnswer> {
  try {
    const records = await resolver().resolveTxt(name);
    return { kind: "found", values: records.map((strings) => strings.join("")) };
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === "ENOTFOUND" || code === "ENODATA") return { kind: "none" };
    return { kind: "failed", code: typeof code === "string" ? code : "EUNKNOWN" };
  }
}
