import type { NextRequest } from "next/server";
import { exportUsageCsv } from "./export-usage-csv";

export const dynamic = "force-dynamic";

export async function GET(request: NextRequest, { params }: { params: Promise<{ orgSlug: string }> }) {
  const { orgSlug } = await params;
  return exportUsageCsv(orgSlug, request.nextUrl.searchParams);
}
