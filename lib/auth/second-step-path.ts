/** Where a sign-in that passed the password goes on when the person has a second factor (SPEC §16). */
export function secondStepPath(callbackUrl: string): string {
  return `/signin/two-factor?${new URLSearchParams({ callbackUrl })}`;
}
