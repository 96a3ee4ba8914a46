import { Badge } from "@/components/ui/badge";

export function KeyStatusBadge({ status }: { status: "active" | "revoked" }) {
  return status === "active" ? <Badge variant="success">Active</Badge> : <Badge variant="secondary">Revoked</Badge>;
}
