import { Activity } from "lucide-react";
import { ApiQuickstart } from "@/components/api-quickstart";
import { EmptyState } from "@/components/empty-state";
import { Card } from "@/components/ui/card";

/** An empty usage view that says what to do next: with a base URL, the curl example for a first call. */
export function NoRequests({
  title,
  description,
  baseUrl,
  quickstartTitle,
}: {
  title: string;
  description: string;
  baseUrl: string | null;
  quickstartTitle?: string;
}) {
  return (
    <>
      <Card>
        <EmptyState icon={<Activity className="size-6" aria-hidden />} title={title} description={description} />
      </Card>
      {baseUrl ? <ApiQuickstart baseUrl={baseUrl} title={quickstartTitle} /> : null}
    </>
  );
}
