import type { RevokeReason } from "@/core/enums";

/** How the revoke dialog, the key's page and the history name each reason (docs/features/api-keys.md#rename-revoke-last-use). */
export const REVOKE_REASONS: Record<RevokeReason, string> = {
  compromised: "Compromised or leaked",
  no_longer_used: "No longer used",
  replaced: "Replaced by another key",
  other: "Other",
  leaked: "Found in public by a secret scanner",
};

export const REVOKE_NOTE_MAX = 500;
