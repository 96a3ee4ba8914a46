import { Badge } from "@/components/ui/badge";

/** Whether a way of signing in with a second factor is set up. */
export function TwoFactorStatusBadge({ on }: { on: boolean }) {
  return on ? <Badge variant="success">On</Badge> : <Badge variant="outline">Off</Badge>;
}
