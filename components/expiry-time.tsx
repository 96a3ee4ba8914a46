import { RelativeTime } from "@/components/relative-time";

const describeExpiry = (relative: string, past: boolean) => (past ? `Expired ${relative}` : `Expires ${relative}`);

/** "Expires in 5 days" / "Expired 2 days ago" / "Never" (or bare: "in 5 days"), with the exact UTC time on hover. */
export function ExpiryTime({ expiresAt, bare = false }: { expiresAt: string | null; bare?: boolean }) {
  return <RelativeTime value={expiresAt} fallback="Never" describe={bare ? undefined : describeExpiry} />;
}
