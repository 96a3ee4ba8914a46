import { createPrivateKey, createPublicKey, sign } from "node:crypto";
import http from "node:http";
import type { APIRequestContext } from "@playwright/test";

/**
 * GitHub's side of secret scanning (docs/security.md#leaked-keys-and-secret-scanning) for the e2e servers: a key list served at the
 * SECRET_SCANNING_KEYS_URL e2e/start-server.sh gives each server, and reports signed with its key.
 * A fixed key made for these tests only (not a secret): a server that cached it in an earlier run
 * still checks this run's signatures.
 */
const PRIVATE_KEY = createPrivateKey(`-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgN9AVNLvP6YxVp1RD
OpgqUAss04z85hBARiaxstiVaX6hRANCAASeSLGeUiFUQbr/NcwSn4PmVTmJauHt
7gp/OT5n8MYMCAc9eAYFuUClhg/A2cOTGlWBSESkt81NNFK144DGnisk
-----END PRIVATE KEY-----`);
const KEY_IDENTIFIER = "e2e-secret-scanning-key";

export const scannerPort = (server: number) => 3190 + server;

/** Serves the key list on the port of `server` until the returned function closes it. */
export async function serveScannerKeys(server: number): Promise<() => Promise<void>> {
  const pem = createPublicKey(PRIVATE_KEY).export({ type: "spki", format: "pem" }).toString();
  const listener = http.createServer((_request, response) => {
    response.writeHead(200, { "content-type": "application/json" });
    response.end(JSON.stringify({ public_keys: [{ key_identifier: KEY_IDENTIFIER, key: pem, is_current: true }] }));
  });
  await new Promise<void>((resolve) => listener.listen(scannerPort(server), "127.0.0.1", resolve));
  return () => new Promise<void>((resolve) => listener.close(() => resolve()));
}

/** POSTs a signed report of `tokens` found at `url`, as GitHub does. */
export async function reportLeak(request: APIRequestContext, tokens: string[], url: string) {
  const body = Buffer.from(JSON.stringify(tokens.map((token) => ({ token, type: "invoicing_api_key", url, source: "content" }))));
  return request.post("/api/secret-scanning", {
    data: body,
    headers: {
      "content-type": "application/json",
      "github-public-key-identifier": KEY_IDENTIFIER,
      "github-public-key-signature": sign("sha256", body, PRIVATE_KEY).toString("base64"),
    },
  });
}
