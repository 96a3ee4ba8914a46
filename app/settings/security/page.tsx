import { ArrowRight, ShieldAlert, ShieldCheck } from "lucide-react";
import type { Metadata } from "next";
import Link from "next/link";
import { findMembershipBySlug } from "@/db/queries/organizations";
import { listPasskeys } from "@/db/queries/passkeys";
import { twoFactorStatus } from "@/db/queries/two-factor";
import { PageHeader } from "@/components/page-header";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { RECOVERY_CODE_COUNT } from "@/lib/auth/recovery-codes";
import { currentUserId } from "@/lib/session";
import { isSlug } from "@/lib/slug";
import { AuthenticatorAppCard } from "./authenticator-app-card";
import { PasskeysCard } from "./passkeys-card";
import { RecoveryCodesCard } from "./recovery-codes-card";
import { redirectToSignIn } from "@/lib/sign-in-redirect";

export const metadata: Metadata = { title: "Security" };

/**
 * Each person's own two-factor sign-in. `?required=<slug>` is where an organization that
 * requires it sends a member without it: the page says so, and where to go once it is set up.
 */
export default async function SecurityPage({ searchParams }: { searchParams: Promise<{ required?: string }> }) {
  const userId = await currentUserId();
  if (!userId) return redirectToSignIn();
  const { required } = await searchParams;
  const [status, passkeys, requiredBy] = await Promise.all([
    twoFactorStatus(userId),
    listPasskeys(userId),
    typeof required === "string" && isSlug(required) ? findMembershipBySlug(userId, required) : null,
  ]);
  const methods = { totp: status.totp !== null, passkey: passkeys.length > 0 };
  const on = methods.totp || methods.passkey;
  return (
    <div className="space-y-6">
      <PageHeader
        title="Security"
        description="Two-factor authentication asks for a code from your phone or a passkey after your password, so a stolen password alone does not open your account. It applies to every organization you belong to."
      />
      {requiredBy && !on ? (
        <Alert variant="warning" role="status">
          <ShieldAlert aria-hidden />
          <AlertTitle>{requiredBy.orgName} requires two-factor authentication</AlertTitle>
          <AlertDescription>
            <p>Set up an authenticator app or a passkey below to continue to {requiredBy.orgName}. Until then its pages stay closed to you.</p>
          </AlertDescription>
        </Alert>
      ) : null}
      {requiredBy && on ? (
        <Alert variant="success" role="status">
          <ShieldCheck aria-hidden />
          <AlertTitle>Two-factor authentication is on</AlertTitle>
          <AlertDescription>
            <Link href={`/${requiredBy.orgSlug}/settings/api`} className="inline-flex items-center gap-1 font-medium underline-offset-4 hover:underline">
              Continue to {requiredBy.orgName} <ArrowRight className="size-4" aria-hidden />
            </Link>
          </AlertDescription>
        </Alert>
      ) : null}
      <AuthenticatorAppCard addedAt={status.totp?.confirmedAt.toISOString() ?? null} methods={methods} />
      <PasskeysCard
        passkeys={passkeys.map((passkey) => ({
          id: passkey.id,
          name: passkey.name,
          createdAt: passkey.createdAt.toISOString(),
          lastUsedAt: passkey.lastUsedAt?.toISOString() ?? null,
        }))}
        methods={methods}
      />
      <RecoveryCodesCard enabled={on} left={status.recoveryCodesLeft} total={RECOVERY_CODE_COUNT} />
    </div>
  );
}
