import { generateKeyPairSync, sign, type KeyObject } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { NextRequest } from "next/server";
import { POST } from "@/app/api/secret-scanning/route";

/**
 * GitHub's side of secret scanning (docs/security.md#leaked-keys-and-secret-scanning), played by the tests: a P-256 key pair made here, its
 * public key served on 127.0.0.1 at the URL set as SECRET_SCANNING_KEYS_URL, and reports signed
 * over their raw body as GitHub signs them.
 */
export function keyPair() {
  const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  return { privateKey, pem: publicKey.export({ type: "spki", format: "pem" }).toString() };
}

/** GitHub's published key list, as the test chooses it; counts how often it was fetched. */
export const github = { keys: [{ id: "github-key-1", ...keyPair() }], fetches: 0, url: "", origin: "" };

/** Other answers of the key server, by path: a list that fails, or one too large to read. */
const otherAnswers = new Map<string, http.RequestListener>();

const keyServer = http.createServer((request, response) => {
  const other = otherAnswers.get(new URL(request.url ?? "/", "http://127.0.0.1").pathname);
  if (other) return other(request, response);
  github.fetches++;
  serveKeyList(response);
});

/** Answers with GitHub's key list as it is now. */
export function serveKeyList(response: http.ServerResponse): void {
  response.writeHead(200, { "content-type": "application/json" });
  response.end(JSON.stringify({ public_keys: github.keys.map((key) => ({ key_identifier: key.id, key: key.pem, is_current: true })) }));
}

/** Answers requests for `path` on the key server with `listener`; the URL to set as SECRET_SCANNING_KEYS_URL. */
export function answerAt(path: string, listener: http.RequestListener): string {
  otherAnswers.set(path, listener);
  return `${github.origin}${path}`;
}

export async function startKeyServer(): Promise<void> {
  await new Promise<void>((resolve) => keyServer.listen(0, "127.0.0.1", resolve));
  github.origin = `http://127.0.0.1:${(keyServer.address() as AddressInfo).port}`;
  github.url = `${github.origin}/meta/public_keys/secret_scanning`;
  process.env.SECRET_SCANNING_KEYS_URL = github.url;
}

export async function stopKeyServer(): Promise<void> {
  keyServer.closeAllConnections();
  await new Promise<void>((resolve) => keyServer.close(() => resolve()));
}

let ipCounter = 0;
/** Each test reports from an address of its own, so the per-address rate limit is its alone. */
export const freshIp = () => `203.0.113.${++ipCounter}`;

export interface ScannedToken {
  token: string;
  type?: string;
  url?: string;
  source?: string;
}

export function signed(body: string, privateKey: KeyObject): string {
  return sign("sha256", Buffer.from(body), privateKey).toString("base64");
}

/** POSTs a report to the route as GitHub does: the raw body, signed with `signWith` (default: GitHub's key) under `identifier`. */
export async function report(tokens: ScannedToken[] | string, options: { ip?: string; identifier?: string; signWith?: KeyObject; signature?: string } = {}) {
  const body = typeof tokens === "string" ? tokens : JSON.stringify(tokens.map((token) => ({ type: "invoicing_api_key", source: "content", ...token })));
  const headers: Record<string, string> = { "content-type": "application/json", "x-forwarded-for": options.ip ?? freshIp() };
  headers["github-public-key-identifier"] = options.identifier ?? github.keys[0]!.id;
  headers["github-public-key-signature"] = options.signature ?? signed(body, options.signWith ?? github.keys[0]!.privateKey);
  const response = await POST(new NextRequest("http://localhost/api/secret-scanning", { method: "POST", body, headers }));
  return { status: response.status, json: (await response.json()) as unknown };
}

export const LEAK_URL = "https://github.com/someone/app/blob/abc123/.env";
