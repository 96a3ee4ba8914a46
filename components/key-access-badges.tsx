import { Globe, Lock, LockOpen } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { Tooltip, TooltipContent, TooltipTrigger } from "@/components/ui/tooltip";
import type { KeyRestrictions } from "@/core/enums";
import { describeScopes } from "@/lib/keys/access";

/**
 * SPEC §9: what a key can do at a glance ("Read only", "Restricted", "IP-restricted"), the detail
 * on hover and keyboard focus. A full-access key without an allowlist carries none.
 */
export function KeyAccessBadges({ apiKey }: { apiKey: KeyRestrictions }) {
  const reach = describeScopes(apiKey.access, apiKey.scopes)
    .filter((line) => line.can !== "No access")
    .map((line) => `${line.label}: ${line.can.toLowerCase()}`)
    .join(" · ");
  const badges = [
    apiKey.access === "read_only" ? { label: "Read only", icon: LockOpen, detail: `GET requests only. ${reach}.` } : null,
    apiKey.access === "restricted" ? { label: "Restricted", icon: Lock, detail: `${reach}. Nothing else.` } : null,
    apiKey.ipAllowlist.length > 0
      ? { label: "IP-restricted", icon: Globe, detail: `Only from ${apiKey.ipAllowlist.length === 1 ? apiKey.ipAllowlist[0] : `${apiKey.ipAllowlist.length} addresses or ranges`}.` }
      : null,
  ].filter((badge) => badge !== null);
  if (badges.length === 0) return null;
  return (
    <span className="flex flex-wrap gap-1">
      {badges.map(({ label, icon: Icon, detail }) => (
        <Tooltip key={label}>
          <TooltipTrigger asChild>
            <Badge variant="outline" tabIndex={0} className="cursor-default font-normal">
              <Icon aria-hidden /> {label}
            </Badge>
          </TooltipTrigger>
          <TooltipContent className="max-w-64">{detail}</TooltipContent>
        </Tooltip>
      ))}
    </span>
  );
}
