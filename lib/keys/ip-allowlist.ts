import ipaddr from "ipaddr.js";
import { IP_ALLOWLIST_MAX } from "@/core/enums";

/**
 * A key's IP allowlist, read with ipaddr.js. Entries are stored in one canonical form
 * (an address alone, or a network address and its prefix; IPv6 compressed as RFC 5952 says), which
 * PostgreSQL reads as `cidr` in the gateway's statement.
 */

/** The longest allowlist a form may send: 20 full IPv6 ranges with separators fit well within it. */
export const IP_ALLOWLIST_TEXT_MAX = 2000;

type Parsed = { ok: true; entry: string } | { ok: false; message: string };

const IPV4_HINT = "Use an address such as 203.0.113.10 or 2001:db8::1, or a range such as 203.0.113.0/24.";

function canonicalAddress(address: ipaddr.IPv4 | ipaddr.IPv6): string {
  return address.kind() === "ipv6" ? (address as ipaddr.IPv6).toRFC5952String() : address.toString();
}

/** Only the forms PostgreSQL reads: four decimal parts for IPv4 (ipaddr.js alone also takes "127.1" and hex). */
function isStrictAddress(text: string): boolean {
  return ipaddr.IPv4.isValidFourPartDecimal(text) || (ipaddr.IPv6.isValid(text) && !text.includes("%"));
}

/** One typed entry: an address or a CIDR range, refused with what to write instead. */
export function parseAllowlistEntry(raw: string): Parsed {
  const text = raw.trim();
  const [address, prefix, ...rest] = text.split("/");
  if (!address || rest.length > 0 || !isStrictAddress(address) || (prefix !== undefined && !/^\d{1,3}$/.test(prefix))) {
    return { ok: false, message: `“${text.slice(0, 60)}” is not an IP address or range. ${IPV4_HINT}` };
  }
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === "ipv6" && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
    return { ok: false, message: `Write ${text} as the IPv4 address it stands for: ${(parsed as ipaddr.IPv6).toIPv4Address().toString()}.` };
  }
  if (prefix === undefined) return { ok: true, entry: canonicalAddress(parsed) };
  const bits = Number(prefix);
  const maxBits = parsed.kind() === "ipv4" ? 32 : 128;
  if (bits > maxBits) return { ok: false, message: `${text}: an ${parsed.kind() === "ipv4" ? "IPv4" : "IPv6"} range has a prefix of at most /${maxBits}.` };
  if (bits === maxBits) return { ok: true, entry: canonicalAddress(parsed) };
  const network = parsed.kind() === "ipv4" ? ipaddr.IPv4.networkAddressFromCIDR(text) : ipaddr.IPv6.networkAddressFromCIDR(text);
  const range = `${canonicalAddress(network)}/${bits}`;
  if (canonicalAddress(network) !== canonicalAddress(parsed)) return { ok: false, message: `${text} is not the start of its range: did you mean ${range}?` };
  return { ok: true, entry: range };
}

/** Splits what a person typed (one entry per line, or separated by commas or spaces). */
export function splitAllowlist(text: string): string[] {
  return text.split(/[\s,]+/).filter(Boolean);
}

/** Typed entries read one by one: the canonical ones without repeats, and a problem for each of the others. */
function readEntries(typed: string[]): { entries: Set<string>; messages: string[] } {
  const messages: string[] = [];
  const entries = new Set<string>();
  for (const raw of typed) {
    const parsed = parseAllowlistEntry(raw);
    if (parsed.ok) entries.add(parsed.entry);
    else messages.push(parsed.message);
  }
  return { entries, messages };
}

/** The whole list: canonical entries without repeats, or the problems of the entries that are not. */
export function parseAllowlist(text: string): { ok: true; entries: string[] } | { ok: false; messages: string[] } {
  const typed = splitAllowlist(text);
  const { entries, messages } = readEntries(typed.slice(0, IP_ALLOWLIST_MAX + 1));
  if (typed.length > IP_ALLOWLIST_MAX) messages.unshift(`Use at most ${IP_ALLOWLIST_MAX} addresses or ranges; a wider range can cover several.`);
  return messages.length > 0 ? { ok: false, messages } : { ok: true, entries: [...entries] };
}

/**
 * The form's counter as the list is typed: only the valid entries count toward the maximum (a
 * repeat once), and the entries that are not valid are counted apart. Null while nothing is typed.
 */
export function allowlistCount(text: string): string | null {
  const typed = splitAllowlist(text);
  if (typed.length === 0) return null;
  const { entries, messages } = readEntries(typed);
  const invalid = messages.length === 0 ? "" : `; ${messages.length} ${messages.length === 1 ? "entry is" : "entries are"} not an address or range`;
  return `${entries.size} of at most ${IP_ALLOWLIST_MAX}${invalid}.`;
}

/**
 * The gateway asks for every request, and an API's clients are few: parsing with ipaddr.js each
 * time cost about 5 µs of a /v1 request's server time (bench/profile-gateway.ts).
 */
const recentClients = new Map<string, string | null>();
const RECENT_CLIENTS_MAX = 1024;

/**
 * The client's address as the allowlist compares it: an IPv4 client reached over IPv6
 * ("::ffff:203.0.113.10") is its IPv4 address, and a zone ("%eth0") is dropped. Null when the text
 * is no address (a proxy's header can say anything), which no allowlist admits.
 */
export function normalizeClientIp(raw: string | null | undefined): string | null {
  if (!raw) return null;
  const known = recentClients.get(raw);
  if (known !== undefined) return known;
  const text = raw.trim().split("%")[0];
  const normalized = text && isStrictAddress(text) ? canonicalAddress(ipaddr.process(text)) : null;
  // Bounded, as a proxy's header can name any number of addresses: start over once full.
  if (recentClients.size >= RECENT_CLIENTS_MAX) recentClients.clear();
  recentClients.set(raw, normalized);
  return normalized;
}
