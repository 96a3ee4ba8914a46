/** How long a rolled key keeps working beside its replacement. */
export const ROLL_OVERLAPS = [
  { value: "now", label: "At once", ms: 0 },
  { value: "1h", label: "1 hour", ms: 60 * 60 * 1000 },
  { value: "24h", label: "24 hours", ms: 24 * 60 * 60 * 1000 },
  { value: "7d", label: "7 days", ms: 7 * 24 * 60 * 60 * 1000 },
] as const;
export type RollOverlap = (typeof ROLL_OVERLAPS)[number]["value"];
export const ROLL_OVERLAP_VALUES = ROLL_OVERLAPS.map((overlap) => overlap.value) as [RollOverlap, ...RollOverlap[]];

/** When the rolled key stops: after the overlap, or at its own expiry if that comes first. */
export function rolledKeyEndsAt(overlap: RollOverlap, expiresAt: Date | null, now: Date): Date {
  const end = new Date(now.getTime() + ROLL_OVERLAPS.find((choice) => choice.value === overlap)!.ms);
  end.setUTCMilliseconds(0);
  return expiresAt && expiresAt < end ? expiresAt : end;
}

/** The replacement lives as long as the rolled key was made to: the same lifetime from now, or never. */
export function replacementExpiresAt(rolled: { createdAt: Date; expiresAt: Date | null }, now: Date): Date | null {
  if (!rolled.expiresAt) return null;
  const at = new Date(now.getTime() + (rolled.expiresAt.getTime() - rolled.createdAt.getTime()));
  at.setUTCMilliseconds(0);
  return at;
}
