import { countAttempt, type ThrottleLimit } from "@/db/queries/auth-throttle";
import { readAtMost } from "@/lib/api/read-prefix";
import { answerReport } from "./act-on-report";
import { SigningKeysUnavailable, signingKey } from "./public-keys";
import { SECRET_SCANNING_MAX_BODY_BYTES, secretScanningReport, signedBy, type TokenLabel } from "./report";
import { log } from "@/core/log";

/** Reports per client address a minute: GitHub batches tokens, so a scanner sends few; a flood of junk is cut off early. */
export const SECRET_SCANNING_REPORTS_PER_MINUTE = 120;

export type ReceivedReport =
  { status: 200; labels: TokenLabel[] } | { status: 400 | 401 | 413 | 429 | 503; code: string; message: string; retryAfterSeconds?: number };

/** The body, read up to the bound: null once it passes it (the rest is never read). */
async function boundedBody(request: Request): Promise<Buffer | null> {
  const declared = Number(request.headers.get("content-length") ?? 0);
  if (declared > SECRET_SCANNING_MAX_BODY_BYTES) return null;
  if (!request.body) return Buffer.alloc(0);
  const bytes = await readAtMost(request.body, SECRET_SCANNING_MAX_BODY_BYTES);
  if (!bytes) {
    await request.body.cancel();
    return null;
  }
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/**
 * The secret-scanning endpoint, in order: the address's rate, the body's bound, GitHub's signature over
 * the raw body (the identifier's key from SECRET_SCANNING_KEYS_URL), the report's shape; only
 * then is any token looked at. Nothing a refused report carries changes anything.
 */
export async function receiveReport(request: Request, clientIp: string): Promise<ReceivedReport> {
  const byAddress: ThrottleLimit = { subject: `secret-scanning-ip:${clientIp}`, limit: SECRET_SCANNING_REPORTS_PER_MINUTE, windowSeconds: 60 };
  if ("refusedBy" in (await countAttempt([byAddress])))
    return { status: 429, code: "rate_limited", message: "Too many reports from this address. Try again in a minute.", retryAfterSeconds: 60 };

  const body = await boundedBody(request);
  if (!body) return { status: 413, code: "body_too_large", message: `A report is at most ${SECRET_SCANNING_MAX_BODY_BYTES} bytes.` };

  const identifier = request.headers.get("github-public-key-identifier");
  const signature = request.headers.get("github-public-key-signature");
  if (!identifier || !signature)
    return { status: 401, code: "signature_missing", message: "Sign the report: Github-Public-Key-Identifier and Github-Public-Key-Signature are required." };
  let key;
  try {
    key = await signingKey(identifier);
  } catch (error) {
    if (error instanceof SigningKeysUnavailable) {
      log.error({ err: error }, "Fetching the secret scanning signing keys failed");
      return {
        status: 503,
        code: "signing_keys_unavailable",
        message: "The signing keys could not be fetched to check this report. Send it again later.",
        retryAfterSeconds: 60,
      };
    }
    throw error;
  }
  if (!key || !signedBy(body, signature, key))
    return { status: 401, code: "signature_invalid", message: "The signature does not match the report and the named key." };

  let json: unknown;
  try {
    json = JSON.parse(body.toString("utf8"));
  } catch {
    return { status: 400, code: "malformed_report", message: "The report is not JSON." };
  }
  const report = secretScanningReport.safeParse(json);
  if (!report.success) return { status: 400, code: "malformed_report", message: "The report is not a list of tokens with their type, URL and source." };
  const answer = await answerReport(report.data);
  // A key that could not be acted on must not stay live on a 200: the scanner retries an error,
  // and the rest of the report, acted on already, changes nothing the second time.
  if (answer.failedKeys > 0)
    return {
      status: 503,
      code: "report_not_acted_on",
      message: `${answer.failedKeys} reported key(s) could not be acted on. Send the report again.`,
      retryAfterSeconds: 60,
    };
  return { status: 200, labels: answer.labels };
}
