import type { NextRequest } from "next/server";
import { exportActivityCsv } from "./export-activity-csv";

export const dynamic = "force-dynamic";

export async function GET(request: NextRequest, { params }: { params: Promise<{ orgSlug: string }> }) {
  const { orgSlug } = await params;
  return exportActivityCsv(orgSlug, request.nextUrl.searchParams);
}
