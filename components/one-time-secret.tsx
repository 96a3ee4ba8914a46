"use client";

import { TriangleAlert } from "lucide-react";
import type { ReactNode } from "react";
import { CopyButton } from "@/components/copy-button";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";

/**
 * A secret the server has just made and will not show again (an API key, a webhook signing
 * secret): the value to select or copy, and the warning that says so.
 */
export function OneTimeSecret({ id, label, value, warning, children }: { id: string; label: string; value: string; warning: string; children: ReactNode }) {
  return (
    <>
      <div className="space-y-2">
        <Label htmlFor={id}>{label}</Label>
        <div className="flex gap-2">
          <Input id={id} readOnly value={value} className="font-mono text-sm" onFocus={(e) => e.currentTarget.select()} />
          <CopyButton value={value} label="Copy" showLabel />
        </div>
      </div>
      <Alert variant="warning">
        <TriangleAlert className="size-4" aria-hidden />
        <AlertTitle>{warning}</AlertTitle>
        <AlertDescription>{children}</AlertDescription>
      </Alert>
    </>
  );
}
