"use server";

import { z } from "zod";
import { endAllSessions, endSession } from "@/db/queries/sessions";
import { publicAction, userAction } from "@/lib/action";
import { signOut } from "@/lib/auth";
import { currentSession } from "@/lib/session";

// Here rather than beside a route: the account menu of every dashboard page offers them, and
// components/app-header.tsx hands them to it without importing from app/.

/** Ends this session on the server before its cookie goes, so a copy of the cookie is refused too. */
export const signOutAction = publicAction(z.object({}), async () => {
  const session = await currentSession();
  if (session) await endSession(session.sessionId);
  await signOut({ redirectTo: "/signin" });
});

/** Ends every session of the user, on every device, this one included. */
export const signOutEverywhereAction = userAction(z.object({}), async (_input, { userId }) => {
  await endAllSessions(userId);
  await signOut({ redirectTo: "/signin" });
});
