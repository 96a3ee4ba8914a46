import type { WebhookAttemptDto, WebhookDeliveryDto } from "@/db/queries/webhooks";
import { RelativeTime } from "@/components/relative-time";
import { Badge } from "@/components/ui/badge";
import { Table, TableActionsHead, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { RefreshWhileDelivering, ResendDeliveryButton } from "./delivery-controls";

const STATUS = {
  succeeded: { label: "Delivered", variant: "success" },
  pending: { label: "Retrying", variant: "warning" },
  failed: { label: "Failed", variant: "destructive" },
} as const;

/** Every attempt of a delivery with its answer, the first first: earlier errors stay readable after a success. */
function AttemptLog({ attempts }: { attempts: WebhookAttemptDto[] }) {
  return (
    <section className="grid gap-2" aria-label="Attempts">
      <p className="font-medium">Attempts</p>
      <ol className="grid gap-2">
        {attempts.map((attempt) => (
          <li key={attempt.attempt} className="grid gap-1 rounded-md border p-2">
            <div className="flex flex-wrap items-baseline gap-x-3 gap-y-1">
              <span className="font-medium">Attempt {attempt.attempt}</span>
              <span className={attempt.responseStatus !== null && attempt.responseStatus < 300 ? "font-mono" : "font-mono text-destructive"}>
                {attempt.responseStatus ?? "No answer"}
              </span>
              <span className="tabular-nums text-muted-foreground">{attempt.durationMs.toLocaleString("en-US")} ms</span>
              <RelativeTime value={attempt.attemptedAt} className="text-muted-foreground" />
            </div>
            {attempt.responseExcerpt ? (
              <pre className="max-h-40 overflow-auto rounded bg-muted p-2 break-all whitespace-pre-wrap">{attempt.responseExcerpt}</pre>
            ) : null}
          </li>
        ))}
      </ol>
    </section>
  );
}

/**
 * An endpoint's delivery log: event, attempts (each with its answer when the row is opened), answer,
 * duration, and "Resend" for a settled delivery. Rendered on the server: only "Resend" and the
 * refresh while a delivery is under way hydrate (./delivery-controls.tsx).
 */
export function DeliveryLog({ orgId, deliveries, canResend }: { orgId: string; deliveries: WebhookDeliveryDto[]; canResend: boolean }) {
  const waiting = deliveries.some((delivery) => delivery.status === "pending");
  if (deliveries.length === 0) {
    return <p className="py-6 text-center text-sm text-muted-foreground">No deliveries yet. Send a test event to see one here.</p>;
  }
  return (
    <>
      {waiting ? <RefreshWhileDelivering /> : null}
      <Table>
        <TableHeader>
          <TableRow>
            <TableHead>Event</TableHead>
            <TableHead>Status</TableHead>
            <TableHead className="text-right">Attempts</TableHead>
            <TableHead>Response</TableHead>
            <TableHead className="text-right">Duration</TableHead>
            <TableHead>Created</TableHead>
            <TableActionsHead />
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
                    {/* As wide as a phone's screen allows, so the opened row reads without scrolling sideways. */}
                    <div className="mt-2 grid w-[min(36rem,calc(100vw-6rem))] gap-2 text-xs">
                      <p className="font-mono break-all text-muted-foreground">webhook-id {delivery.id}</p>
                      <pre className="max-h-60 overflow-auto rounded-md bg-muted p-2 break-all whitespace-pre-wrap">{delivery.payload}</pre>
                      {delivery.attemptLog.length > 0 ? (
                        <AttemptLog attempts={delivery.attemptLog} />
                      ) : delivery.responseExcerpt ? (
                        <p className="text-muted-foreground">{delivery.responseExcerpt}</p>
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
                <TableCell className="text-right tabular-nums">
                  {delivery.durationMs !== null ? `${delivery.durationMs.toLocaleString("en-US")} ms` : "—"}
                </TableCell>
                <TableCell>
                  <RelativeTime value={delivery.createdAt} />
                </TableCell>
                <TableCell className="text-right">
                  {canResend && delivery.status !== "pending" ? (
                    <ResendDeliveryButton orgId={orgId} deliveryId={delivery.id} eventType={delivery.eventType} />
                  ) : null}
                </TableCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
    </>
  );
}
