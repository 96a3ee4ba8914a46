"use client";

import { RotateCcw } from "lucide-react";
import { useRouter } from "next/navigation";
import { useEffect } from "react";
import { toast } from "@/components/toast";
import { useConfirmAction } from "@/components/use-confirm-action";
import { Button } from "@/components/ui/button";
import { resendWebhookDeliveryAction } from "../actions";

// The delivery log's only client parts (./delivery-log.tsx renders the rows on the server).

/** While a delivery is being attempted, the page refreshes itself to show how it went. */
const REFRESH_MS = 2_000;

/** Mounted while a delivery is under way: refreshes the page until none is. */
export function RefreshWhileDelivering() {
  const router = useRouter();
  useEffect(() => {
    const timer = setInterval(() => router.refresh(), REFRESH_MS);
    return () => clearInterval(timer);
  }, [router]);
  return null;
}

/** Queues a settled delivery again, with the same webhook-id. */
export function ResendDeliveryButton({ orgId, deliveryId, eventType }: { orgId: string; deliveryId: string; eventType: string }) {
  const resend = useConfirmAction(resendWebhookDeliveryAction, {
    onSuccess: () => toast.success("Delivery queued again", { description: "Same webhook-id, so your receiver can tell it is a repeat." }),
    onError: toast.error,
  });
  return (
    <Button
      variant="ghost"
      size="sm"
      disabled={resend.pending}
      onClick={() => resend.run({ orgId, deliveryId })}
      aria-label={`Resend ${eventType} ${deliveryId}`}
    >
      <RotateCcw className="size-4" aria-hidden /> Resend
    </Button>
  );
}
