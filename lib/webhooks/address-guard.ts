import dns from "node:dns";
import type { LookupFunction } from "node:net";
import ipaddr from "ipaddr.js";

/**
 * The guard against server-side request forgery (docs/features/webhooks.md#ssrf-guard): a webhook goes only to public unicast
 * addresses, never to this machine, its private networks, link-local (cloud metadata) or
 * reserved ranges, unless WEBHOOK_ALLOW_PRIVATE=true (the tests' receivers on 127.0.0.1). The
 * check runs on the addresses the connection is made to (the lookup of the request itself), so
 * a name that resolves to a public address when it is saved and a private one later is refused.
 */

export function privateAddressesAllowed(): boolean {
  return process.env.WEBHOOK_ALLOW_PRIVATE === "true";
}

/** `::/96`: RFC 4291's deprecated IPv4-compatible addresses, `::a.b.c.d`, which URLs write as `[::7f00:1]`. */
const IPV4_COMPATIBLE = ipaddr.parseCIDR("::/96");

/**
 * The address a connection to `address` reaches, as ipaddr.js reads it: an IPv4-mapped
 * (`::ffff:a.b.c.d`) or IPv4-compatible (`::a.b.c.d`) IPv6 address is the IPv4 address it names,
 * since a dual-stack host may route it there; ipaddr.js itself sees only the mapped form.
 */
function effectiveAddress(address: string): ipaddr.IPv4 | ipaddr.IPv6 {
  const parsed = ipaddr.process(address);
  if (parsed.kind() === "ipv6" && parsed.match(IPV4_COMPATIBLE)) return ipaddr.fromByteArray(parsed.toByteArray().slice(12));
  return parsed;
}

/** Whether `address` is a public unicast address (an IPv4 address written as IPv6 counts as its IPv4). */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  return effectiveAddress(address).range() === "unicast";
}

export class RefusedAddressError extends Error {
  constructor(
    readonly host: string,
    readonly address: string,
  ) {
    super(`${host} resolves to ${address}, a private, loopback or reserved address: webhooks are sent to public addresses only.`);
    this.name = "RefusedAddressError";
  }
}

/** The refusal of `hostname` when any of its addresses is not public, unless private addresses are allowed. */
function refusalOf(hostname: string, addresses: string[]): RefusedAddressError | null {
  if (privateAddressesAllowed()) return null;
  const refused = addresses.find((address) => !isPublicAddress(address));
  return refused === undefined ? null : new RefusedAddressError(hostname, refused);
}

/** "[::1]" as an address: a URL's IPv6 host comes in brackets. */
function unbracketed(hostname: string): string {
  return hostname.replace(/^\[|\]$/g, "");
}

/** A DNS lookup for http.request that refuses a host with any non-public address. */
export const guardedLookup: LookupFunction = (hostname, options, callback) => {
  dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, "", 0);
    const list = addresses as dns.LookupAddress[];
    const refusal = refusalOf(
      hostname,
      list.map((entry) => entry.address),
    );
    if (refusal) return callback(refusal, "", 0);
    if (options.all) return (callback as unknown as (error: null, addresses: dns.LookupAddress[]) => void)(null, list);
    const first = list[0];
    if (!first) return callback(Object.assign(new Error(`${hostname} has no address`), { code: "ENOTFOUND" }), "", 0);
    callback(null, first.address, first.family);
  });
};

/**
 * The refusal of a URL's host given as an address ("127.0.0.1", "[::1]"): Node connects to an
 * address without a lookup, so the guard above never sees it.
 */
export function refusedLiteral(hostname: string): RefusedAddressError | null {
  const bare = unbracketed(hostname);
  return ipaddr.isValid(bare) ? refusalOf(hostname, [bare]) : null;
}

/** The refusal, if any, for a host as it resolves now: what the endpoint form says when it is saved. */
export async function addressProblem(hostname: string): Promise<string | null> {
  const bare = unbracketed(hostname);
  if (ipaddr.isValid(bare)) return refusalOf(hostname, [bare])?.message ?? null;
  let addresses: dns.LookupAddress[];
  try {
    addresses = await dns.promises.lookup(bare, { all: true });
  } catch {
    return `${hostname} could not be resolved. Check the address.`;
  }
  return (
    refusalOf(
      hostname,
      addresses.map((entry) => entry.address),
    )?.message ?? null
  );
}
