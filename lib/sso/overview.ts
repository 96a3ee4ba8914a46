import "server-only";
import { getDb } from "@/db";
import { getSsoConnection, listSsoDomains, type SsoConnectionDto } from "@/db/queries/sso-settings";
import { verificationRecordName, verificationRecordValue } from "./domain-name";

/** A domain as the page shows it (docs/features/sso.md#domains): the TXT record that proves it, and whether it has. */
export interface SsoDomainView {
  id: string;
  domain: string;
  recordName: string;
  recordValue: string;
  verifiedAt: Date | null;
  createdAt: Date;
}

export interface SsoOverview {
  /** No client secret, only its hint. */
  connection: SsoConnectionDto | null;
  domains: SsoDomainView[];
}

export async function ssoOverview(orgId: string): Promise<SsoOverview> {
  const db = getDb();
  const [connection, domains] = await Promise.all([getSsoConnection(db, orgId), listSsoDomains(db, orgId)]);
  return {
    connection,
    domains: domains.map((domain) => ({
      id: domain.id,
      domain: domain.domain,
      recordName: verificationRecordName(domain.domain),
      recordValue: verificationRecordValue(domain.verificationToken),
      verifiedAt: domain.verifiedAt,
      createdAt: domain.createdAt,
    })),
  };
}
