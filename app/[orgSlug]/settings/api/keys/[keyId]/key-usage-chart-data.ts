import { utcDayStart } from "@/core/time";

/** What the key page's charts draw, as they travel to the browser: a day's requests per status class (2xx, 3xx, 4xx, 5xx), a status code and its count. */
export type DailyCounts = [number, number, number, number];
export type StatusCount = [status: number, count: number];

export const shortDay = (day: string) => utcDayStart(day.slice(0, 10)).toLocaleDateString("en-US", { month: "short", day: "numeric", timeZone: "UTC" });
export const longDay = (day: string) => utcDayStart(day.slice(0, 10)).toLocaleDateString("en-US", { weekday: "short", month: "short", day: "numeric", timeZone: "UTC" });
