"use client";

import { Download } from "lucide-react";
import { useState, type ReactNode } from "react";
import { Button } from "@/components/ui/button";
import { Tabs, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { BREAKDOWN_NAMES, BREAKDOWNS, type Breakdown } from "@/lib/usage/breakdowns";

/**
 * The breakdowns' tabs and the open one's CSV. The tables themselves are drawn on the server
 * (`children`, one TabsContent each), so switching tabs needs no request.
 */
export function UsageTabsClient({
  initial,
  exportPath,
  exportQuery,
  children,
}: {
  initial: Breakdown;
  exportPath: string;
  exportQuery: string;
  children: ReactNode;
}) {
  const [current, setCurrent] = useState<Breakdown>(initial);
  const exportParams = new URLSearchParams(exportQuery);
  exportParams.set("table", current);
  return (
    <Tabs value={current} onValueChange={(value) => setCurrent(value as Breakdown)} className="gap-0">
      <div className="flex flex-wrap items-center justify-between gap-3 border-b px-4 py-3">
        <TabsList aria-label="Breakdown">
          {BREAKDOWN_NAMES.map((name) => (
            <TabsTrigger key={name} value={name}>
              {BREAKDOWNS[name].label}
            </TabsTrigger>
          ))}
        </TabsList>
        <Button variant="outline" size="sm" asChild>
          <a href={`${exportPath}?${exportParams}`} download>
            <Download className="size-4" aria-hidden /> Download CSV
          </a>
        </Button>
      </div>
      {children}
    </Tabs>
  );
}
