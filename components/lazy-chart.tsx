"use client";

import { useEffect, useRef, type ComponentType } from "react";
import { Skeleton } from "@/components/ui/skeleton";
import type { LazyModule } from "@/components/lazy-module";

/**
 * Charts whose library is fetched when the first of them comes into view
 * (docs/decisions/0064-charts-load-when-seen.md): the charting library is the largest part of a
 * page's JavaScript, and most charts sit below the first screen.
 */

/** A chart's place while its module is not here: a skeleton of its size that asks for the module once it is seen. */
function ChartPending({ onSeen }: { onSeen: () => void }) {
  const place = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) onSeen();
    });
    observer.observe(place.current!);
    return () => observer.disconnect();
  }, [onSeen]);
  return <Skeleton ref={place} className="size-full" />;
}

/** One chart of a lazy module: its skeleton until the module is here, then the chart itself; every chart of the module draws once any one has fetched it. */
export function lazyChart<M, P extends object>(charts: LazyModule<M>, pick: (module: M) => ComponentType<P>): ComponentType<P> {
  return function LazyChart(props: P) {
    const loaded = charts.useLoaded();
    if (!loaded) return <ChartPending onSeen={charts.load} />;
    const Chart = pick(loaded);
    return <Chart {...props} />;
  };
}
