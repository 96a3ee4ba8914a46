"use client";

import { RotateCcw } from "lucide-react";
import { useRouter } from "next/navigation";
import { useEffect } from "react";
import { toast } from "sonner";
import type { WebhookDeliveryDto } from "@/db/queries/webhooks";
import { RelativeTime } from "@/components/relative-time";
import { useConfirmAction } from "@/components/use-confirm-action";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { resendWebhookDeliveryAction } from "../actions";

const STATUS = {
  succeeded: { label: "Delivered", variant: "success" },
  pending: { label: "Retrying", variant: "warning" },
  failed: { label: "Failed", variant: "destructive" },
} as const;

/** While a delivery is being attempted, the page refreshes itself to show how it went. */
const REFRESH_MS = 2_000;

/** SPEC §10's delivery log: event, attempts, answer, duration, and "Resend" for a settled delivery. */
export function DeliveryLog({ orgId, deliveries, canResend }: { orgId: string; deliveries: WebhookDeliveryDto[]; canResend: boolean }) {
  const router = useRouter();
  const waiting = deliveries.some((delivery) => delivery.status === "pending");
  useEffect(() => {
    if (!waiting) return;
    const timer = setInterval(() => router.refresh(), REFRESH_MS);
    return () => clearInterval(timer);
  }, [waiting, router]);
  const resend = useConfirmAction(resendWebhookDeliveryAction, {
    onSuccess: () => toast.success("Delivery queued again", { description: "Same webhook-id, so your receiver can tell it is a repeat." }),
    onError: toast.error,
  });

  if (deliveries.length === 0) {
    return <p className="py-6 text-center text-sm text-muted-foreground">No deliveries yet. Send a test event to see one here.</p>;
  }
  return (
    <Table>
      <TableHeader>
        <TableRow>
          <TableHead>Event</TableHead>
          <TableHead>Status</TableHead>
          <TableHead className="text-right">Attempts</TableHead>
          <TableHead>Response</TableHead>
          <TableHead className="text-right">Duration</TableHead>
          <TableHead>Created</TableHead>
          <TableHead>
            <span className="sr-only">Actions</span>
          </TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {deliveries.map((delivery) => {
          const status = STATUS[delivery.status];
          return (
            <TableRow key={delivery.id} className="align-top">
              <TableCell>
                <details>
                  <summary className="cursor-pointer font-mono text-sm">{delivery.eventType}</summary>
                  <div className="mt-2 grid max-w-xl gap-2 text-xs">
                    <p className="font-mono text-muted-foreground">webhook-id {delivery.id}</p>
                    <pre className="max-h-60 overflow-auto rounded-md bg-muted p-2 whitespace-pre-wrap">{delivery.payload}</pre>
                    {delivery.responseExcerpt ? (
                      <>
                        <p className="font-medium">Last answer</p>
                        <pre className="max-h-40 overflow-auto rounded-md bg-muted p-2 whitespace-pre-wrap">{delivery.responseExcerpt}</pre>
                      </>
                    ) : null}
                  </div>
                </details>
              </TableCell>
              <TableCell>
                <Badge variant={status.variant}>{delivery.attempts === 0 && delivery.status === "pending" ? "Queued" : status.label}</Badge>
              </TableCell>
              <TableCell className="text-right tabular-nums">{delivery.attempts}</TableCell>
              <TableCell className="max-w-64">
                {delivery.responseStatus !== null ? (
                  <span className="font-mono">{delivery.responseStatus}</span>
                ) : delivery.attempts > 0 ? (
                  <span className="text-muted-foreground">{delivery.responseExcerpt ?? "No answer"}</span>
                ) : (
                  <span className="text-muted-foreground">—</span>
                )}
              </TableCell>
              <TableCell className="text-right tabular-nums">{delivery.durationMs !== null ? `${delivery.durationMs.toLocaleString("en-US")} ms` : "—"}</TableCell>
              <TableCell>
                <RelativeTime value={delivery.createdAt} />
              </TableCell>
              <TableCell className="text-right">
                {canResend && delivery.status !== "pending" ? (
                  <Button variant="ghost" size="sm" disabled={resend.pending} onClick={() => resend.run({ orgId, deliveryId: delivery.id })} aria-label={`Resend ${delivery.eventType} ${delivery.id}`}>
                    <RotateCcw className="size-4" aria-hidden /> Resend
                  </Button>
                ) : null}
              </TableCell>
            </TableRow>
          );
        })}
      </TableBody>
    </Table>
  );
}
