import { FlaskConical } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import type { Mode } from "@/core/enums";

/**
 * "Test" on a test key or webhook endpoint wherever one is listed (docs/features/test-mode.md); a live one
 * carries none, as in Stripe's dashboard, so the badge stands out where it matters.
 */
export function ModeBadge({ mode }: { mode: Mode }) {
  if (mode === "live") return null;
  return (
    <Badge variant="warning">
      <FlaskConical aria-hidden /> Test
    </Badge>
  );
}
