import { Card } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";

/** The title and description of a page while it loads. */
export function PageHeaderSkeleton({ titleWidth = "w-40" }: { titleWidth?: string }) {
  return (
    <div className="space-y-2">
      <Skeleton className={`h-8 ${titleWidth}`} />
      <Skeleton className="h-4 w-full max-w-xl" />
    </div>
  );
}

/** Rows of a table while it loads. */
export function TableSkeleton({ rows = 10 }: { rows?: number }) {
  return (
    <Card className="gap-0 py-0">
      {Array.from({ length: rows }, (_, i) => (
        <div key={i} className="flex items-center gap-4 border-b px-6 py-3 last:border-b-0">
          <Skeleton className="h-4 w-32" />
          <Skeleton className="h-4 w-36" />
          <Skeleton className="h-4 w-10" />
          <Skeleton className="h-4 flex-1" />
          <Skeleton className="h-5 w-10" />
        </div>
      ))}
    </Card>
  );
}

/** A newest-first log page while it loads: its header, its filter bar of `filters` selects, its rows. */
export function LogPageSkeleton({ label, filters, gridClassName }: { label: string; filters: number; gridClassName: string }) {
  return (
    <div className="space-y-6" aria-busy="true" aria-label={label}>
      <PageHeaderSkeleton />
      <div className={`grid grid-cols-1 gap-3 rounded-xl border bg-card p-4 sm:grid-cols-2 ${gridClassName}`}>
        {Array.from({ length: filters }, (_, i) => (
          <div key={i} className="space-y-1.5">
            <Skeleton className="h-3 w-16" />
            <Skeleton className="h-9 w-full" />
          </div>
        ))}
      </div>
      <TableSkeleton />
    </div>
  );
}

/** The Usage page's report while its numbers load: four totals, the requests chart, a breakdown. */
export function UsageReportSkeleton() {
  return (
    <div className="space-y-6" aria-busy="true" aria-label="Loading usage">
      <div className="grid grid-cols-2 gap-4 lg:grid-cols-4">
        {Array.from({ length: 4 }, (_, i) => (
          <Card key={i} className="gap-2 px-4 py-4 sm:px-6">
            <Skeleton className="h-3 w-24" />
            <Skeleton className="h-7 w-20" />
            <Skeleton className="h-3 w-28" />
          </Card>
        ))}
      </div>
      <Card className="px-6">
        <Skeleton className="h-4 w-24" />
        <Skeleton className="h-64 w-full" />
      </Card>
      <TableSkeleton rows={6} />
    </div>
  );
}
