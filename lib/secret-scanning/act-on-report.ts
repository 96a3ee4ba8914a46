import { getDb } from "@/db";
import { raiseKeyLeakedAlert } from "@/lib/alerts/raise";
import { insertActivity } from "@/db/queries/activity";
import { reportedKeys, type ReportedKeyDto } from "@/db/queries/leaked-keys";
import type { ActivityChange } from "@/core/activity";
import { hashApiKey, parseApiKey } from "@/lib/keys/format";
import { revokeApiKey } from "@/lib/keys/lifecycle";
import type { SecretScanningReport, TokenLabel } from "./report";
import { log } from "@/core/log";

type ReportedToken = SecretScanningReport[number];

/**
 * What a true positive does (docs/security.md#leaked-keys-and-secret-scanning), in one transaction: the alert first, unique per key, so a
 * report of a key reported before (even at the same moment) raises nothing and changes nothing;
 * then, as the organization chose, the revocation through the same path as a person's (its
 * `key.revoked` event) or nothing more; and a system entry in the history with where it leaked.
 * The alert brings the `key.leaked` event, the Slack messages and the owners' emails, which the
 * queue sends after the commit.
 */
async function actOnLeak(key: ReportedKeyDto, token: ReportedToken, now: Date): Promise<void> {
  const url = token.url ?? "";
  const source = token.source ?? "";
  await getDb().transaction(async (tx) => {
    const raised = await raiseKeyLeakedAlert(tx, { orgId: key.orgId, apiKeyId: key.id, url, source, response: key.response, at: now });
    if (raised.length === 0) return;
    const target = { type: "api_key" as const, id: key.id, name: key.name };
    const entries: ActivityChange[] = [{ action: "api_key.leaked", target, after: { response: key.response, leakedAt: url || null, source: source || null } }];
    if (key.response === "revoke") {
      const revoked = await revokeApiKey(tx, key.orgId, key.id, { userId: null, reason: "leaked", note: null }, now);
      if (revoked) entries.push(revoked.activity);
    }
    await insertActivity(tx, key.orgId, { kind: "system" }, entries);
  });
}

/**
 * Acts on one leaked key in its own transaction: a failure (its cause logged with the key and its
 * organization) rolls back that key alone, so the rest of the batch is still acted on; the key
 * stays as it was, and the report is answered so that the scanner sends it again (false).
 */
async function actOnLeakAlone(key: ReportedKeyDto, token: ReportedToken, now: Date): Promise<boolean> {
  try {
    await actOnLeak(key, token, now);
    return true;
  } catch (error) {
    log.error(
      { err: error, keyId: key.id, orgId: key.orgId },
      `Acting on a leaked key failed: it was not ${key.response === "revoke" ? "revoked" : "alerted on"}`,
    );
    return false;
  }
}

/** A report's answer, and how many of its keys could not be acted on (the report is to be sent again). */
export interface ReportAnswer {
  labels: TokenLabel[];
  failedKeys: number;
}

/**
 * Answers a verified report token by token (GitHub's format): a token that fails our checksum is
 * a false positive without a lookup; one of ours is a true positive, and acted on while it still
 * works, once however many times the report names it (the first mention's URL and source). An
 * unknown, revoked or expired key changes nothing, so a report sent again repeats nothing done.
 */
export async function answerReport(report: SecretScanningReport, now = new Date()): Promise<ReportAnswer> {
  // A key's stored hash and GitHub's token_hash are the same SHA-256 (hex) of the whole token.
  const tokens = report.map((token) => ({ ...token, hash: hashApiKey(token.token) }));
  const wellFormed = new Map<string, ReportedToken>();
  for (const token of tokens) if (!wellFormed.has(token.hash) && parseApiKey(token.token).ok) wellFormed.set(token.hash, token);
  const keys = await reportedKeys([...wellFormed.keys()]);
  let failedKeys = 0;
  for (const [hash, token] of wellFormed) {
    const key = keys.get(hash);
    if (key?.active && !(await actOnLeakAlone(key, token, now))) failedKeys += 1;
  }
  const labels = tokens.map((token): TokenLabel => ({
    token_hash: token.hash,
    token_type: token.type,
    label: keys.has(token.hash) ? "true_positive" : "false_positive",
  }));
  return { labels, failedKeys };
}
