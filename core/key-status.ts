export type ApiKeyStatus = "active" | "expired" | "revoked";

/**
 * A key's status at `at`, as the dashboard shows it and the roll checks it: a revocation ends a
 * key before its expiry does, and a key is expired from its expiry on (docs/features/api-keys.md#expiry). This is the
 * TypeScript mirror of the gateway's admission statement (db/queries/admission-statement.ts: `revoked`, and
 * `expired` as `expires_at <= at`), which is what refuses requests; tests/admission-mirrors.test.ts
 * holds the two together at the boundary.
 */
export function keyStatus(key: { revokedAt: Date | null; expiresAt: Date | null }, at: Date): ApiKeyStatus {
  if (key.revokedAt) return "revoked";
  return key.expiresAt && key.expiresAt <= at ? "expired" : "active";
}
