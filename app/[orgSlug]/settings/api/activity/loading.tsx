import { LogPageSkeleton } from "@/components/page-skeletons";

export default function ActivityLoading() {
  return <LogPageSkeleton label="Loading the activity history" filters={4} gridClassName="lg:grid-cols-4" />;
}
