// In a route group of its own so that its loading boundary wraps only the list: the key pages
// below must be able to answer 404 before anything streams.
import { PageHeaderSkeleton, TableSkeleton } from "@/components/page-skeletons";
import { Skeleton } from "@/components/ui/skeleton";

export default function ApiKeysLoading() {
  return (
    <div className="space-y-6" aria-busy="true" aria-label="Loading the API keys">
      <PageHeaderSkeleton />
      <Skeleton className="h-28 w-full rounded-xl" />
      <TableSkeleton rows={4} />
    </div>
  );
}
