/** Where a sign-in that passed the password goes on when the person has a second factor (docs/features/two-factor.md). */
export function secondStepPath(callbackUrl: string): string {
  return `/signin/two-factor?${new URLSearchParams({ callbackUrl })}`;
}
