"use client";

import * as React from "react";
import { useRouter } from "next/navigation";
import { Search } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { cn } from "@/lib/utils";

const REQUEST_ID = /^req_[A-Za-z0-9]{1,60}$/;

/**
 * "Find a request": a `req_…` id pasted from a customer's error body or X-Request-Id header opens
 * that request's details (docs/features/audit-log.md#request-details). The page says whether the organization has it.
 */
export function RequestSearch({ base, className }: { base: string; className?: string }) {
  const router = useRouter();
  const [error, setError] = React.useState<string | null>(null);
  const errorId = React.useId();

  function find(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const id = String(new FormData(event.currentTarget).get("request") ?? "").trim();
    if (!REQUEST_ID.test(id)) {
      setError("Request IDs look like req_0Ab1Cd2Ef3Gh4Ij5Kl6Mn7O: paste one from an error body's request_id or the X-Request-Id header.");
      return;
    }
    setError(null);
    router.push(`${base}/${id}`);
  }

  return (
    <form role="search" aria-label="Find a request by ID" onSubmit={find} className={cn("space-y-1.5", className)} noValidate>
      <div className="flex gap-2">
        <div className="relative min-w-0 flex-1">
          <Search className="pointer-events-none absolute top-1/2 left-2.5 size-4 -translate-y-1/2 text-muted-foreground" aria-hidden />
          <Input
            name="request"
            aria-label="Request ID"
            placeholder="Find a request: req_…"
            autoComplete="off"
            spellCheck={false}
            className="pl-8 font-mono text-sm"
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? errorId : undefined}
            onChange={() => setError(null)}
          />
        </div>
        <Button type="submit" variant="outline">
          Find
        </Button>
      </div>
      {error ? (
        <p id={errorId} className="text-sm text-destructive">
          {error}
        </p>
      ) : null}
    </form>
  );
}
