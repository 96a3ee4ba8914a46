import { Badge } from "@/components/ui/badge";
import type { ApiKeyStatus } from "@/core/key-status";

const BADGES: Record<ApiKeyStatus, { label: string; variant: "success" | "warning" | "secondary" }> = {
  active: { label: "Active", variant: "success" },
  expired: { label: "Expired", variant: "warning" },
  revoked: { label: "Revoked", variant: "secondary" },
};

export function KeyStatusBadge({ status }: { status: ApiKeyStatus }) {
  const { label, variant } = BADGES[status];
  return <Badge variant={variant}>{label}</Badge>;
}
