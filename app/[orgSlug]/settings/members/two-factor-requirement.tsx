"use client";

import { ShieldCheck } from "lucide-react";
import Link from "next/link";
import { useState } from "react";
import { toast } from "sonner";
import { ConfirmFooter } from "@/components/confirm-footer";
import { useConfirmAction } from "@/components/use-confirm-action";
import { AlertDialog, AlertDialogContent, AlertDialogDescription, AlertDialogHeader, AlertDialogTitle, AlertDialogTrigger } from "@/components/ui/alert-dialog";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardDescription, CardFooter, CardHeader, CardTitle } from "@/components/ui/card";
import { holdersCan } from "@/lib/authz";
import { setTwoFactorRequirementAction } from "./actions";

interface Props {
  orgId: string;
  orgName: string;
  required: boolean;
  /** Members with a second factor, and all members. */
  withTwoFactor: number;
  total: number;
  /** The viewer may change it (owners), and whether they have two-factor themselves. */
  canManage: boolean;
  viewerHasTwoFactor: boolean;
}

/** "Require two-factor for everyone", which owners set and everyone sees. */
export function TwoFactorRequirement({ orgId, orgName, required, withTwoFactor, total, canManage, viewerHasTwoFactor }: Props) {
  const [open, setOpen] = useState(false);
  const change = useConfirmAction(setTwoFactorRequirementAction, {
    onSuccess: ({ required: now }) => {
      setOpen(false);
      toast.success(now ? "Two-factor is now required for everyone" : "Two-factor is no longer required");
    },
  });
  const without = total - withTwoFactor;
  const blocked = !required && !viewerHasTwoFactor;
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex flex-wrap items-center gap-2 text-base">
          <ShieldCheck className="size-4 text-primary" aria-hidden /> Two-factor authentication
          {required ? <Badge variant="success">Required for everyone</Badge> : <Badge variant="outline">Not required</Badge>}
        </CardTitle>
        <CardDescription>
          {withTwoFactor} of {total} {total === 1 ? "member has" : "members have"} two-factor sign-in.{" "}
          {required
            ? "Anyone without it is taken to set it up and reaches nothing of this organization until they have."
            : "When it is required, anyone without it is taken to set it up before they reach anything here."}
          {canManage ? null : ` ${holdersCan("security.manage", "change this")}`}
        </CardDescription>
      </CardHeader>
      {canManage ? (
        <CardFooter className="flex-wrap gap-3 border-t">
          <AlertDialog
            open={open}
            onOpenChange={(next) => {
              setOpen(next);
              change.clearError();
            }}
          >
            <AlertDialogTrigger asChild>
              <Button variant={required ? "outline" : "default"} disabled={blocked}>
                {required ? "Stop requiring two-factor…" : "Require two-factor for everyone…"}
              </Button>
            </AlertDialogTrigger>
            <AlertDialogContent>
              <AlertDialogHeader>
                <AlertDialogTitle>{required ? "Stop requiring two-factor?" : `Require two-factor for everyone in ${orgName}?`}</AlertDialogTitle>
                <AlertDialogDescription>
                  {required
                    ? "Members may then sign in and work here with a password alone."
                    : without === 0
                      ? "Every member already has it. New members will have to set it up before they reach anything here."
                      : `${without} ${without === 1 ? "member does" : "members do"} not have it yet. From their next page load, they are taken to set it up and reach nothing of ${orgName} until they have.`}
                </AlertDialogDescription>
              </AlertDialogHeader>
              <ConfirmFooter
                label={required ? "Stop requiring" : "Require two-factor"}
                pendingLabel="Saving…"
                pending={change.pending}
                error={change.error}
                variant={required ? "destructive" : "default"}
                onConfirm={() => change.run({ orgId, required: required ? "off" : "on" })}
              />
            </AlertDialogContent>
          </AlertDialog>
          {blocked ? (
            <p className="text-sm text-muted-foreground">
              <Link href="/settings/security" className="font-medium text-primary underline-offset-4 hover:underline">
                Set up two-factor for yourself
              </Link>{" "}
              first: requiring it would otherwise lock you out too.
            </p>
          ) : null}
        </CardFooter>
      ) : null}
    </Card>
  );
}
