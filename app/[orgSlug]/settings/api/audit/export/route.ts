import type { NextRequest } from "next/server";
import { exportAuditCsv } from "./export-audit-csv";

export const dynamic = "force-dynamic";

export async function GET(request: NextRequest, { params }: { params: Promise<{ orgSlug: string }> }) {
  const { orgSlug } = await params;
  return exportAuditCsv(orgSlug, request.nextUrl.searchParams);
}
