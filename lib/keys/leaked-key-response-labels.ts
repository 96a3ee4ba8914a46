import type { LeakedKeyResponse } from "@/core/enums";

/** How the key policy page, the history and the alerts name each response to a leaked key (docs/security.md#leaked-keys-and-secret-scanning). */
export const LEAKED_KEY_RESPONSES: Record<LeakedKeyResponse, string> = {
  revoke: "Revoke at once",
  alert: "Alert only",
};
