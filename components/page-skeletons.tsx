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
