import "server-only";
import { z } from "zod";
import { setEmailPreferences, type EmailPreferences } from "@/db/queries/notifications";
import { NOTICE_KIND_VALUES, type NoticeKind } from "@/core/notifications";
import { orgIdSchema } from "@/lib/input-rules";
import type { ActionContext, Change } from "@/lib/action";

/** A switch of the form: "on" when it is on, absent when it is off (a form sends no unchecked box). */
const switchValue = z
  .preprocess((value) => value ?? "off", z.enum(["on", "off", "true", "false"], { error: "Turn it on or off." }))
  .transform((value) => value === "on" || value === "true");

/** Every kind's email switch, as /settings/notifications sends them. */
export const emailPreferencesInput = z.object({
  orgId: orgIdSchema,
  ...(Object.fromEntries(NOTICE_KIND_VALUES.map((kind) => [kind, switchValue])) as Record<NoticeKind, typeof switchValue>),
});

/** The person's own choice, for themself only: nothing of the organization changes, so no history entry. */
export async function chooseEmails(input: z.output<typeof emailPreferencesInput>, ctx: ActionContext): Promise<Change<EmailPreferences>> {
  const choices = Object.fromEntries(NOTICE_KIND_VALUES.map((kind) => [kind, input[kind]])) as EmailPreferences;
  await setEmailPreferences(ctx.tx, ctx.orgId, ctx.userId, choices);
  return { data: choices, personal: true };
}
