"use client";

import { ShieldAlert } from "lucide-react";
import { useId, useState } from "react";
import { toast } from "@/components/toast";
import { FormAlert } from "@/components/form-alert";
import { useActionForm } from "@/components/use-action-form";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from "@/components/ui/card";
import { RadioCard } from "@/components/radio-card";
import { RadioGroup } from "@/components/ui/radio-group";
import type { LeakedKeyResponse } from "@/core/enums";
import { onlyHoldersCan } from "@/lib/authz";
import { LEAKED_KEY_RESPONSES } from "@/lib/keys/leaked-key-response-labels";
import { setLeakedKeyResponseAction } from "./actions";

const HELP: Record<LeakedKeyResponse, string> = {
  revoke: "The key stops working the moment it is reported; the owners are emailed, and the alert and history say where it was found.",
  alert: "The key keeps working; the owners are emailed and the alert says where it was found, so you can roll it yourself.",
};

/** What a key a secret scanner finds in public gets; owners choose, everyone else reads. */
export function LeakedKeysCard({ orgId, response, canManage }: { orgId: string; response: LeakedKeyResponse; canManage: boolean }) {
  const id = useId();
  const [chosen, setChosen] = useState(response);
  const { pending, onSubmit, error } = useActionForm(setLeakedKeyResponseAction, (data) =>
    toast.success("Leaked-key response saved", { description: LEAKED_KEY_RESPONSES[data.response] }),
  );
  return (
    <Card>
      <form onSubmit={onSubmit} noValidate>
        <CardHeader>
          <CardTitle className="flex items-center gap-2 text-base">
            <ShieldAlert className="size-4 text-primary" aria-hidden /> Leaked keys
          </CardTitle>
          <CardDescription>
            GitHub and other secret scanners report keys of this organization they find in public code, within seconds of the push. Choose what happens to a
            reported key.
          </CardDescription>
        </CardHeader>
        <CardContent className="space-y-3">
          {error ? <FormAlert>{error}</FormAlert> : null}
          <input type="hidden" name="orgId" value={orgId} />
          <RadioGroup
            name="response"
            value={chosen}
            onValueChange={(value) => setChosen(value as LeakedKeyResponse)}
            disabled={!canManage}
            aria-label="Leaked keys"
            className="gap-2"
          >
            {(Object.keys(LEAKED_KEY_RESPONSES) as LeakedKeyResponse[]).map((choice) => (
              <RadioCard
                key={choice}
                id={`${id}-${choice}`}
                value={choice}
                label={LEAKED_KEY_RESPONSES[choice]}
                description={HELP[choice]}
                selected={chosen === choice}
                disabled={!canManage}
              />
            ))}
          </RadioGroup>
        </CardContent>
        <CardFooter className="border-t">
          {canManage ? (
            <Button type="submit" disabled={pending || chosen === response}>
              {pending ? "Saving…" : "Save leaked-key response"}
            </Button>
          ) : (
            <p className="text-sm text-muted-foreground">{onlyHoldersCan("security.manage", "choose what happens to leaked keys")}</p>
          )}
        </CardFooter>
      </form>
    </Card>
  );
}
