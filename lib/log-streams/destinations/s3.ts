import http from "node:http";
import https from "node:https";
import { promisify } from "node:util";
import { gzip } from "node:zlib";
import { PutObjectCommand, S3Client, S3ServiceException, type S3ClientConfig } from "@aws-sdk/client-s3";
import { NodeHttpHandler } from "@smithy/node-http-handler";
import { guardedLookup, refusedLiteral } from "@/lib/webhooks/address-guard";
import { DELIVERY_TIMEOUT_MS } from "@/lib/webhooks/deliver";
import { DeliveryError, type Batch, type Destination, type DestinationOf } from "./destination";
import { eventRecordBytes, SOURCE_NAME } from "./event-record";
import { retryableStatus, withDeadline } from "./http-post";

/**
 * Amazon S3 or a service that speaks its API (docs/features/log-streams.md#s3): one gzipped JSON
 * Lines object a batch, named by the batch, so a retried batch writes the same object again
 * rather than a second one.
 */

type S3Settings = DestinationOf<"s3">["settings"];

/**
 * `<prefix/>invoicing/<organization>/<YYYY>/<MM>/<DD>/<HH>/<batch id>.jsonl.gz`, the date and hour
 * (UTC) of the batch's first event: Athena's and most readers' partitions by time, and the same
 * key for the same batch on every attempt.
 */
export function s3ObjectKey(prefix: string | null, batch: Pick<Batch, "organizationId" | "id" | "events">): string {
  const first = batch.events[0];
  const at = (first ? new Date(first.occurredAt) : new Date()).toISOString();
  const [date, time] = at.split("T") as [string, string];
  const hour = time.slice(0, 2);
  const folder = prefix?.replace(/^\/+|\/+$/g, "");
  return [folder || null, SOURCE_NAME, batch.organizationId, ...date.split("-"), hour, `${batch.id}.jsonl.gz`].filter(Boolean).join("/");
}

const gzipped = promisify(gzip);
const NEWLINE = Buffer.from("\n");

/** The object's body: one event a line (JSON Lines), gzipped off the event loop. */
export function s3ObjectBody(batch: Pick<Batch, "events">): Promise<Buffer> {
  return gzipped(Buffer.concat(batch.events.flatMap((event) => [eventRecordBytes(event), NEWLINE])));
}

/**
 * The client, with every setting given, so the SDK reads nothing from this machine's AWS
 * environment variables or files (its default credential chain, profile, endpoint or retry
 * settings): the stream's own credentials, and its connections through the SSRF guard. One
 * attempt: the engine retries. Checksums: S3's default CRC32 on AWS; only where the operation
 * requires one elsewhere, since S3-compatible services refused the new checksum headers
 * (https://github.com/aws/aws-sdk-js-v3/issues/6810).
 */
function s3Client(settings: S3Settings, secrets: DestinationOf<"s3">["secrets"]): S3Client {
  const agent = { lookup: guardedLookup };
  const checksums = settings.endpoint ? "WHEN_REQUIRED" : "WHEN_SUPPORTED";
  const config: S3ClientConfig = {
    region: settings.region,
    credentials: { accessKeyId: secrets.accessKeyId, secretAccessKey: secrets.secretAccessKey },
    ...(settings.endpoint ? { endpoint: settings.endpoint, forcePathStyle: true } : {}),
    requestHandler: new NodeHttpHandler({
      httpAgent: new http.Agent(agent),
      httpsAgent: new https.Agent(agent),
      requestTimeout: DELIVERY_TIMEOUT_MS,
      throwOnRequestTimeout: true,
    }),
    maxAttempts: 1,
    retryMode: "standard",
    defaultsMode: "standard",
    useFipsEndpoint: false,
    useDualstackEndpoint: false,
    useArnRegion: false,
    ignoreConfiguredEndpointUrls: true,
    disableS3ExpressSessionAuth: true,
    requestChecksumCalculation: checksums,
    responseChecksumValidation: checksums,
    authSchemePreference: [],
    sigv4aSigningRegionSet: [settings.region],
    userAgentAppId: "invoicing-log-streams",
    disableClockSkewCorrection: false,
  };
  return new S3Client(config);
}

/** The sentence for what S3 answered, by its error code (https://docs.aws.amazon.com/AmazonS3/latest/API/ErrorResponses.html). */
function s3Sentence(code: string, bucket: string): { sentence: string; retryable?: boolean } {
  switch (code) {
    case "InvalidAccessKeyId":
      return { sentence: "S3 refused the access key ID", retryable: false };
    case "SignatureDoesNotMatch":
      return { sentence: "S3 refused the secret access key", retryable: false };
    case "AccessDenied":
      return { sentence: `S3 denied writing to the bucket “${bucket}” (the key needs s3:PutObject)`, retryable: false };
    case "NoSuchBucket":
      return { sentence: `The bucket “${bucket}” does not exist`, retryable: false };
    case "PermanentRedirect":
    case "AuthorizationHeaderMalformed":
    case "IllegalLocationConstraintException":
      return { sentence: `The bucket “${bucket}” is in another region`, retryable: false };
    // S3 answers these two with 400, yet they pass: a slow upload, a clock set right again.
    case "RequestTimeout":
    case "RequestTimeTooSkewed":
      return { sentence: "S3 did not take the object in time", retryable: true };
    default:
      return { sentence: "S3 did not take the object" };
  }
}

function s3Refusal(error: S3ServiceException, bucket: string): DeliveryError {
  const status = error.$metadata.httpStatusCode ?? null;
  const { sentence, retryable } = s3Sentence(error.name, bucket);
  const reason = error.message && error.message !== error.name ? `: ${error.message.replace(/\.$/, "")}` : "";
  return new DeliveryError(
    `${sentence} (${status ?? "no status"} ${error.name}${reason}).`,
    { status, retryable: retryable ?? (status === null || retryableStatus(status)) },
    { cause: error },
  );
}

export function s3Destination({ settings, secrets }: DestinationOf<"s3">): Destination {
  const client = s3Client(settings, secrets);
  const host = settings.endpoint ? new URL(settings.endpoint).host : `${settings.bucket}.s3.${settings.region}.amazonaws.com`;
  return (batch) =>
    withDeadline("S3", host, batch.signal, async (signal) => {
      // An endpoint written as an address is connected to without a lookup, which the guard would see.
      const literal = settings.endpoint ? refusedLiteral(new URL(settings.endpoint).hostname) : null;
      if (literal) throw literal;
      const put = new PutObjectCommand({
        Bucket: settings.bucket,
        Key: s3ObjectKey(settings.prefix, batch),
        Body: await s3ObjectBody(batch),
        ContentType: "application/x-ndjson",
        ContentEncoding: "gzip",
      });
      try {
        await client.send(put, { abortSignal: signal });
      } catch (error) {
        throw error instanceof S3ServiceException ? s3Refusal(error, settings.bucket) : error;
      }
    });
}
