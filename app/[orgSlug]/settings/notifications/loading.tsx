import { PageHeaderSkeleton } from "@/components/page-skeletons";
import { Skeleton } from "@/components/ui/skeleton";

export default function NotificationsLoading() {
  return (
    <div className="space-y-6" aria-busy="true" aria-label="Loading notification settings">
      <PageHeaderSkeleton titleWidth="w-48" />
      <Skeleton className="h-96 rounded-xl" />
    </div>
  );
}
