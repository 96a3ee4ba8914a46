"use server";

import { publicAction } from "@/lib/action";
import { unsubscribe, unsubscribeInput } from "@/lib/notifications/unsubscribe";

/** The unsubscribe page's button: the link's signature is the authority, no session needed (docs/features/notifications.md#email). */
export const unsubscribeAction = publicAction(unsubscribeInput, async ({ token }) => {
  const { orgName, emails } = await unsubscribe(token);
  return { orgName, emails };
});
