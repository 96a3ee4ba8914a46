/** "YYYY-MM-DD" of the UTC day `date` falls in. */
export function utcDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** "YYYY-MM-01" of the UTC month `date` falls in. */
export function utcMonthStart(date: Date): string {
  return `${utcDay(date).slice(0, 7)}-01`;
}

/** The first instant of the next UTC month. */
export function nextUtcMonth(date: Date): Date {
  return new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1));
}

/** The first instant of the UTC day "YYYY-MM-DD". */
export function utcDayStart(day: string): Date {
  return new Date(`${day}T00:00:00Z`);
}
