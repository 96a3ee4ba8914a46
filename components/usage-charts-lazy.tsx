"use client";

import { lazyChart } from "@/components/lazy-chart";
import { lazyModule } from "@/components/lazy-module";

const drawn = lazyModule(() => import("@/components/usage-charts-drawn"));

export const LazyRequestsOverTimeBars = lazyChart(drawn, (module) => module.RequestsOverTimeBars);
export const LazyErrorRateLines = lazyChart(drawn, (module) => module.ErrorRateLines);
export const LazyLatencyLines = lazyChart(drawn, (module) => module.LatencyLines);
export const LazyDailyRequestsBars = lazyChart(drawn, (module) => module.DailyRequestsBars);
export const LazyStatusCodesBars = lazyChart(drawn, (module) => module.StatusCodesBars);
