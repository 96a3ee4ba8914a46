"use client";

import { Mail } from "lucide-react";
import { useState } from "react";
import { toast } from "@/components/toast";
import { FormAlert } from "@/components/form-alert";
import { useActionForm } from "@/components/use-action-form";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from "@/components/ui/card";
import { Switch } from "@/components/ui/switch";
import { ALERT_KIND_VALUES } from "@/core/enums";
import { NOTICE_KINDS, type NoticeKind } from "@/core/notifications";
import { setEmailPreferencesAction } from "./actions";

const GROUPS: { title: string; description: string; kinds: readonly NoticeKind[] }[] = [
  { title: "Alerts", description: "The organization's alerts (the bell), each as it is raised.", kinds: ALERT_KIND_VALUES },
  { title: "Your keys", description: "Reminders about keys before something happens to them.", kinds: ["expiry_reminder"] },
];

export function EmailPreferencesForm({ orgId, preferences }: { orgId: string; preferences: Record<NoticeKind, boolean> }) {
  const [chosen, setChosen] = useState(preferences);
  const { pending, onSubmit, error } = useActionForm(setEmailPreferencesAction, (saved) => {
    const on = Object.values(saved).filter(Boolean).length;
    toast.success("Email notifications saved", {
      description: on === 0 ? "You get no email from this organization." : `${on} kind${on === 1 ? "" : "s"} of email on.`,
    });
  });
  const unchanged = Object.entries(chosen).every(([kind, on]) => preferences[kind as NoticeKind] === on);
  return (
    <form onSubmit={onSubmit} noValidate>
      <input type="hidden" name="orgId" value={orgId} />
      <Card>
        <CardHeader>
          <CardTitle className="flex items-center gap-2 text-base">
            <Mail className="size-4 text-primary" aria-hidden /> Email me about
          </CardTitle>
          <CardDescription>Only you see and change these. They apply in this organization; each other organization has its own.</CardDescription>
        </CardHeader>
        <CardContent className="space-y-6">
          {error ? <FormAlert>{error}</FormAlert> : null}
          {GROUPS.map((group) => (
            <fieldset key={group.title} className="space-y-1">
              <legend className="text-sm font-medium">{group.title}</legend>
              <p className="text-sm text-muted-foreground">{group.description}</p>
              <ul className="mt-2 divide-y rounded-md border">
                {group.kinds.map((kind) => (
                  <li key={kind} className="flex items-center justify-between gap-4 px-3 py-3">
                    <label htmlFor={`email-${kind}`} className="grid cursor-pointer gap-0.5">
                      <span className="text-sm font-medium">{NOTICE_KINDS[kind].label}</span>
                      <span id={`email-${kind}-description`} className="text-sm text-muted-foreground">
                        {NOTICE_KINDS[kind].description}
                      </span>
                    </label>
                    <Switch
                      id={`email-${kind}`}
                      name={kind}
                      checked={chosen[kind]}
                      onCheckedChange={(on) => setChosen({ ...chosen, [kind]: on })}
                      aria-describedby={`email-${kind}-description`}
                    />
                  </li>
                ))}
              </ul>
            </fieldset>
          ))}
        </CardContent>
        <CardFooter className="justify-end border-t">
          <Button type="submit" disabled={pending || unchanged}>
            {pending ? "Saving…" : "Save"}
          </Button>
        </CardFooter>
      </Card>
    </form>
  );
}
