import { KeyRound, ShieldCheck } from "lucide-react";
import type { MemberDto } from "@/db/queries/members";
import { RelativeTime } from "@/components/relative-time";
import { Badge } from "@/components/ui/badge";

type SignIn = Pick<MemberDto, "hasPassword" | "hasTwoFactor" | "ssoLastSignInAt">;

/**
 * How a member signs in (docs/features/members.md#the-page): through this organization's identity
 * provider, with a password, or both, and whether they have a second factor. The second factor is
 * shown whatever the way in, since the organization's two-factor requirement asks it of everyone.
 * The badges wrap, so on a phone they stack and the column stays narrow.
 */
export function MemberSignIn({ member }: { member: SignIn }) {
  return (
    <div className="grid justify-items-start gap-1">
      <div className="flex flex-wrap gap-1">
        {member.ssoLastSignInAt ? (
          <Badge variant="secondary" title="Signs in through the organization's identity provider">
            <KeyRound aria-hidden /> SSO
          </Badge>
        ) : null}
        {member.hasPassword ? <Badge variant="outline">Password</Badge> : null}
        {member.hasTwoFactor ? (
          <Badge variant="success">
            <ShieldCheck aria-hidden /> 2FA on
          </Badge>
        ) : (
          <Badge variant="outline" className="text-muted-foreground">
            2FA off
          </Badge>
        )}
      </div>
      {member.ssoLastSignInAt ? (
        // On a phone even the time wraps ("11 months ago" is wider than the badges), so the column
        // stays as narrow as its widest badge; hovering or focusing the time shows the exact one.
        <p className="text-xs whitespace-normal text-muted-foreground">
          Last SSO sign-in <RelativeTime value={member.ssoLastSignInAt} className="whitespace-normal sm:whitespace-nowrap" />
        </p>
      ) : null}
    </div>
  );
}
