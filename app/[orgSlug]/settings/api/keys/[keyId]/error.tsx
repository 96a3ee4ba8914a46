"use client";

import { RouteError } from "@/components/route-error";

export default function KeyDetailsError(props: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <RouteError
      title="This key's usage could not be loaded"
      description="Reading the key's statistics failed on our side. The key itself is unchanged and keeps working. Try again in a moment; if it keeps failing, send us the reference below."
      {...props}
    />
  );
}
