import { PageHeaderSkeleton } from "@/components/page-skeletons";
import { Skeleton } from "@/components/ui/skeleton";

export default function KeyPolicyLoading() {
  return (
    <div className="space-y-6" aria-busy="true" aria-label="Loading the key policy">
      <PageHeaderSkeleton titleWidth="w-32" />
      <Skeleton className="h-72 rounded-xl" />
    </div>
  );
}
