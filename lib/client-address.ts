import { wholeNumberFromEnv } from "@/core/env-number";

/**
 * Who sent a request, for the gateway's IP allowlist and audit log and for sign-in throttling:
 * one rule, here.
 *
 * A proxy appends the address it received the request from to X-Forwarded-For, after whatever the
 * client wrote there itself. Behind N proxies of ours, the N-th entry from the right is the
 * address the outermost of them saw; everything to its left is the client's own words (Express's
 * `trust proxy` hop count reads it the same way).
 */

/** TRUST_PROXY_HOPS: how many proxies of ours stand in front of this server; 1 under TRUST_PROXY=true, none without it. */
export function trustedProxyHops(env: Record<string, string | undefined> = process.env): number {
  if (env.TRUST_PROXY !== "true") return 0;
  return wholeNumberFromEnv("TRUST_PROXY_HOPS", 1, "proxies", { env });
}

/**
 * The client's address: the socket's without proxies of ours, otherwise the X-Forwarded-For entry
 * `hops` from the right (the left-most when there are fewer, the socket's when there are none).
 * Applied to its own answer it gives the same address, so a server that passes the answer on in
 * X-Forwarded-For (servers/one-port-listener.ts) and a reader that applies it again agree.
 */
export function clientAddress(socketAddress: string | undefined, forwardedFor: string | undefined, hops = trustedProxyHops()): string | null {
  const entries =
    hops === 0
      ? []
      : (forwardedFor ?? "")
          .split(",")
          .map((entry) => entry.trim())
          .filter(Boolean);
  if (entries.length === 0) return socketAddress || null;
  return entries[Math.max(0, entries.length - hops)]!;
}
