import { LogPageSkeleton } from "@/components/page-skeletons";

export default function AuditLogLoading() {
  return <LogPageSkeleton label="Loading the audit log" filters={5} gridClassName="lg:grid-cols-3 xl:grid-cols-5" />;
}
