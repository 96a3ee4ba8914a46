import { PageHeaderSkeleton } from "@/components/page-skeletons";
import { Skeleton } from "@/components/ui/skeleton";

export default function LogStreamsLoading() {
  return (
    <div className="space-y-6" aria-busy="true" aria-label="Loading log streams">
      <PageHeaderSkeleton titleWidth="w-36" />
      <Skeleton className="h-48 rounded-xl" />
    </div>
  );
}
