import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { GetObjectCommand, ListObjectsV2Command, S3Client } from "@aws-sdk/client-s3";
import S3rver from "s3rver";
import type { EventJson } from "./log-receivers";

/** The credentials s3rver knows (its README): any other access key ID is refused with InvalidAccessKeyId. */
export const S3RVER_CREDENTIALS = { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" };

export interface StoredObject {
  contentType: string | undefined;
  contentEncoding: string | undefined;
  /** The object gunzipped, one parsed JSON value a line. */
  lines: EventJson[];
}

/**
 * s3rver in this process on 127.0.0.1 with a temporary directory and the given buckets, and a
 * client that reads back what a destination wrote: `keys(bucket)`, `object(bucket, key)`.
 */
export async function startS3(buckets: string[] = ["audit"]) {
  const directory = await mkdtemp(path.join(tmpdir(), "s3rver-"));
  const server = new S3rver({ port: 0, address: "127.0.0.1", silent: true, directory, configureBuckets: buckets.map((name) => ({ name })) });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const reader = new S3Client({
    region: "us-east-1",
    endpoint,
    forcePathStyle: true,
    credentials: S3RVER_CREDENTIALS,
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
  });
  return {
    endpoint,
    async keys(bucket: string): Promise<string[]> {
      const listed = await reader.send(new ListObjectsV2Command({ Bucket: bucket }));
      return (listed.Contents ?? []).map((object) => object.Key ?? "").sort();
    },
    async object(bucket: string, key: string): Promise<StoredObject> {
      const got = await reader.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
      const bytes = Buffer.from(await got.Body!.transformToByteArray());
      const text = gunzipSync(bytes).toString("utf8");
      return {
        contentType: got.ContentType,
        contentEncoding: got.ContentEncoding,
        lines: text
          .split("\n")
          .filter(Boolean)
          .map((line) => JSON.parse(line)),
      };
    },
    async stop(): Promise<void> {
      reader.destroy();
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
