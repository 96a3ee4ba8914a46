/**
 * What every server action answers. A refusal may carry `reauthenticate`: the change is one sudo
 * mode guards (docs/security.md#sudo-mode) and the person has not confirmed who they are in the last 10 minutes; the
 * dashboard asks for their password and sends the same change again.
 */
export type ActionResult<T> = { ok: true; data: T } | { ok: false; error: string; fieldErrors?: Record<string, string[]>; reauthenticate?: true };
