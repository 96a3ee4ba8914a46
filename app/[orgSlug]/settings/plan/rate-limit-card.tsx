"use client";

import { toast } from "@/components/toast";
import { FormAlert } from "@/components/form-alert";
import { useActionForm } from "@/components/use-action-form";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from "@/components/ui/card";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { ENTERPRISE_RATE_LIMIT_RANGE } from "@/lib/plans/catalog";
import { setRateLimitAction } from "./actions";
import { number } from "./plan-facts";

/** Enterprise's own per-key rate limit: what applies now, and (owners) the form that sets it. */
export function RateLimitCard({ orgId, canManage, effective, custom }: { orgId: string; canManage: boolean; effective: number; custom: number | null }) {
  const { pending, onSubmit, error, fieldErrors } = useActionForm(setRateLimitAction, (data) =>
    toast.success(`Rate limit set to ${number.format(data.rateLimitPerMinute)} requests per minute per key`),
  );
  return (
    <Card>
      <CardHeader>
        <CardTitle>Enterprise rate limit</CardTitle>
        <CardDescription>
          Requests per minute allowed for each key. Now: <span className="font-medium text-foreground">{number.format(effective)}</span>
          {custom === null ? " (the default)" : ""}.
        </CardDescription>
      </CardHeader>
      {canManage ? (
        <form onSubmit={onSubmit} noValidate>
          <CardContent className="space-y-4">
            {error && !fieldErrors.rateLimitPerMinute ? <FormAlert>{error}</FormAlert> : null}
            <input type="hidden" name="orgId" value={orgId} />
            <FormField
              label="Requests per minute per key"
              description={`From ${ENTERPRISE_RATE_LIMIT_RANGE.min} to ${number.format(ENTERPRISE_RATE_LIMIT_RANGE.max)}.`}
              error={fieldErrors.rateLimitPerMinute?.[0]}
            >
              <Input
                name="rateLimitPerMinute"
                type="number"
                inputMode="numeric"
                min={ENTERPRISE_RATE_LIMIT_RANGE.min}
                max={ENTERPRISE_RATE_LIMIT_RANGE.max}
                defaultValue={effective}
                className="max-w-48"
              />
            </FormField>
          </CardContent>
          <CardFooter className="mt-4">
            <Button type="submit" disabled={pending}>
              {pending ? "Saving…" : "Save rate limit"}
            </Button>
          </CardFooter>
        </form>
      ) : null}
    </Card>
  );
}
