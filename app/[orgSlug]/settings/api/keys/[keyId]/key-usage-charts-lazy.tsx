"use client";

import { lazyChart } from "@/components/lazy-chart";
import { lazyModule } from "@/components/lazy-module";

const drawn = lazyModule(() => import("./key-usage-charts-drawn"));

export const LazyDailyRequestsBars = lazyChart(drawn, (module) => module.DailyRequestsBars);
export const LazyStatusCodesBars = lazyChart(drawn, (module) => module.StatusCodesBars);
