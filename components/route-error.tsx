"use client";

import { CircleAlert, RotateCw } from "lucide-react";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";

/** What a route's error.tsx shows: which page failed, that nothing was changed, and a retry. */
export function RouteError({
  title,
  description,
  error,
  reset,
}: {
  title: string;
  description: string;
  error: Error & { digest?: string };
  reset: () => void;
}) {
  return (
    <Alert variant="destructive" role="alert">
      <CircleAlert className="size-4" aria-hidden />
      <AlertTitle>{title}</AlertTitle>
      <AlertDescription className="space-y-3">
        <p>{description}</p>
        {error.digest ? <p className="font-mono text-xs">Reference: {error.digest}</p> : null}
        <Button variant="outline" size="sm" onClick={reset}>
          <RotateCw className="size-4" aria-hidden /> Try again
        </Button>
      </AlertDescription>
    </Alert>
  );
}
