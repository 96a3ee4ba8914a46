"use client";

import { RouteError } from "@/components/route-error";

export default function PlanError(props: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <RouteError
      title="The plan could not be loaded"
      description="Reading your organization's plan and usage failed on our side; the plan is unchanged. Try again in a moment; if it keeps failing, send us the reference below."
      {...props}
    />
  );
}
