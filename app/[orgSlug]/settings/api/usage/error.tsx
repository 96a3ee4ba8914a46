"use client";

import { RouteError } from "@/components/route-error";

export default function UsageError(props: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <RouteError
      title="Usage could not be loaded"
      description="Reading the usage rollups failed on our side, not because of your filters. Try again in a moment; if it keeps failing, send us the reference below."
      {...props}
    />
  );
}
