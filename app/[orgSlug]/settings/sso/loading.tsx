import { PageHeaderSkeleton } from "@/components/page-skeletons";
import { Skeleton } from "@/components/ui/skeleton";

export default function SsoLoading() {
  return (
    <div className="space-y-6" aria-busy="true" aria-label="Loading single sign-on">
      <PageHeaderSkeleton titleWidth="w-40" />
      <Skeleton className="h-64 rounded-xl" />
      <Skeleton className="h-48 rounded-xl" />
    </div>
  );
}
