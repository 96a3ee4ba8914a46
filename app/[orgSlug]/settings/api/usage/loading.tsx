import { LogPageSkeleton } from "@/components/page-skeletons";

export default function UsageLoading() {
  return <LogPageSkeleton label="Loading usage" filters={5} gridClassName="lg:grid-cols-3 xl:grid-cols-5" />;
}
