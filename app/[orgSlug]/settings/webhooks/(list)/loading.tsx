import { PageHeaderSkeleton } from "@/components/page-skeletons";
import { Skeleton } from "@/components/ui/skeleton";

export default function WebhooksLoading() {
  return (
    <div className="space-y-6" aria-busy="true" aria-label="Loading webhooks">
      <PageHeaderSkeleton titleWidth="w-32" />
      <Skeleton className="h-40 rounded-xl" />
    </div>
  );
}
