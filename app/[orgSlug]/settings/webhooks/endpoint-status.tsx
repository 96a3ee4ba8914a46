import { WEBHOOK_DISABLE_AFTER_FAILING_DAYS } from "@/core/enums";
import type { WebhookEndpointDto } from "@/db/queries/webhooks";
import { Badge } from "@/components/ui/badge";

/** On, off (by whom), or failing: what an endpoint's badge says. */
export function EndpointStatus({ endpoint }: { endpoint: Pick<WebhookEndpointDto, "enabled" | "disabledReason" | "failingSince"> }) {
  if (!endpoint.enabled)
    return <Badge variant="destructive">{endpoint.disabledReason === "failing" ? `Off: failed for ${WEBHOOK_DISABLE_AFTER_FAILING_DAYS} days` : "Off"}</Badge>;
  if (endpoint.failingSince) return <Badge variant="warning">Failing</Badge>;
  return <Badge variant="success">On</Badge>;
}
