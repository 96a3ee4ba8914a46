"use client";

import { RouteError } from "@/components/route-error";

export default function ApiKeysError(props: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <RouteError
      title="The API keys could not be loaded"
      description="Reading your organization's keys failed on our side; no key was changed and every key keeps working. Try again in a moment; if it keeps failing, send us the reference below."
      {...props}
    />
  );
}
