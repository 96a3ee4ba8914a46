import { randomFillSync } from "node:crypto";

// CSPRNG bytes drawn 4 KiB at a time, as crypto.randomUUID caches its own: one call into OpenSSL
// per request id cost the gateway about 2 % of its CPU, and one per answer's traceparent 35 µs a
// request at one connection (docs/performance.md#the-gateways-own-cost).
const POOL_BYTES = 4096;
const pool = Buffer.alloc(POOL_BYTES);
let poolOffset = POOL_BYTES;

/** One byte from the pool, refilled from the CSPRNG when spent. */
export function randomByte(): number {
  if (poolOffset === POOL_BYTES) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  return pool[poolOffset++]!;
}

/** `bytes` random bytes as lowercase hex (2 digits each). */
export function randomHex(bytes: number): string {
  if (poolOffset + bytes > POOL_BYTES) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  const hex = pool.toString("hex", poolOffset, poolOffset + bytes);
  poolOffset += bytes;
  return hex;
}
