/**
 * Checks text against the published key patterns, live and test, and their checksum rule
 * (docs/security.md#leaked-keys-and-secret-scanning), as a secret scanner would: `npm run
 * check-key -- "<text>"`, or text on standard input. Prints each match, its mode and whether it is
 * a well-formed key of ours; exits 1 when nothing well-formed was found.
 */
import { API_KEY_PATTERN, modeOfApiKey, parseApiKey } from "../lib/keys/format";

async function input(): Promise<string> {
  if (process.argv.length > 2) return process.argv.slice(2).join(" ");
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

const matches = [...(await input()).matchAll(API_KEY_PATTERN)].map((match) => match[0]);
let wellFormed = 0;
for (const candidate of matches) {
  const parsed = parseApiKey(candidate);
  if (parsed.ok) wellFormed++;
  console.log(`${candidate}\t${parsed.ok ? `well-formed ${modeOfApiKey(candidate)} key (checksum holds)` : `not a key of ours (${parsed.reason})`}`);
}
if (matches.length === 0) console.log("No match for the key pattern.");
process.exit(wellFormed > 0 ? 0 : 1);
