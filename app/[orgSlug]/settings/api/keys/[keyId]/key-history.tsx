import { ArrowRight } from "lucide-react";
import Link from "next/link";
import type { ActivityPageDto } from "@/db/queries/activity";
import { ActivityEntries } from "@/components/activity-entries";
import { Card, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { activitySearchParams } from "@/lib/activity-filters";

export function KeyHistory({ orgSlug, keyId, history }: { orgSlug: string; keyId: string; history: ActivityPageDto }) {
  return (
    <Card id="history" className="gap-0 overflow-hidden pb-0">
      <CardHeader className="flex flex-wrap items-start justify-between gap-2 pb-4">
        <div className="space-y-1.5">
          <CardTitle className="text-base">History</CardTitle>
          <CardDescription>Who changed this key, and when.</CardDescription>
        </div>
        {history.older ? (
          <Link
            href={`/${orgSlug}/settings/api/activity?${activitySearchParams({ key: keyId })}`}
            className="inline-flex items-center gap-1 text-sm font-medium text-primary hover:underline"
          >
            All of this key&apos;s history <ArrowRight className="size-4" aria-hidden />
          </Link>
        ) : null}
      </CardHeader>
      <div className="border-t">
        {history.rows.length > 0 ? (
          <ActivityEntries orgSlug={orgSlug} entries={history.rows} label="History of this key" linkKeys={false} />
        ) : (
          <p className="px-6 py-8 text-center text-sm text-muted-foreground">No changes recorded for this key yet.</p>
        )}
      </div>
    </Card>
  );
}
