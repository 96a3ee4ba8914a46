import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { twoFactorStatus } from "@/db/queries/two-factor";
import { PageHeader } from "@/components/page-header";
import { RECOVERY_CODE_COUNT } from "@/lib/auth/recovery-codes";
import { currentUserId } from "@/lib/session";
import { AuthenticatorAppCard, RecoveryCodesCard } from "./security-client";

export const metadata: Metadata = { title: "Security" };

/** SPEC §16: each person's own two-factor sign-in. */
export default async function SecurityPage() {
  const userId = await currentUserId();
  if (!userId) redirect("/signin");
  const status = await twoFactorStatus(userId);
  return (
    <div className="space-y-6">
      <PageHeader
        title="Security"
        description="Two-factor authentication asks for a code from your phone after your password, so a stolen password alone does not open your account. It applies to every organization you belong to."
      />
      <AuthenticatorAppCard addedAt={status.totp?.confirmedAt.toISOString() ?? null} />
      <RecoveryCodesCard enabled={status.totp !== null} left={status.recoveryCodesLeft} total={RECOVERY_CODE_COUNT} />
    </div>
  );
}
