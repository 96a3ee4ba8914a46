import { ShieldCheck } from "lucide-react";
import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { Card, CardDescription, CardFooter, CardHeader, CardTitle } from "@/components/ui/card";
import { holdersCan } from "@/lib/authz";
import { TwoFactorRequirementSwitch } from "./two-factor-requirement-switch";

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

/** "Require two-factor for everyone", which owners set and everyone sees; rendered on the server, only its button hydrates. */
export function TwoFactorRequirement({ orgId, orgName, required, withTwoFactor, total, canManage, viewerHasTwoFactor }: Props) {
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
          <TwoFactorRequirementSwitch orgId={orgId} orgName={orgName} required={required} without={without} blocked={blocked} />
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
