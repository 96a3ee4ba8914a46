import { PageHeaderSkeleton, TableSkeleton } from "@/components/page-skeletons";

export default function MembersLoading() {
  return (
    <div className="space-y-6" aria-busy="true" aria-label="Loading members">
      <PageHeaderSkeleton titleWidth="w-32" />
      <TableSkeleton rows={4} />
    </div>
  );
}
