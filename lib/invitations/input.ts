import { z } from "zod";
import { signUpInput } from "@/lib/auth/input";
import { boundedString } from "@/lib/input-rules";
import { isInvitationToken } from "./link";

const invitationTokenSchema = boundedString(64).refine(isInvitationToken, "This invitation link is not valid.");
export const acceptInvitationInput = z.object({ token: invitationTokenSchema });
/** Sign-up through an invitation: the email is the invitation's, so the form does not send one. */
export const signUpWithInvitationInput = signUpInput.pick({ name: true, password: true }).extend({ token: invitationTokenSchema });
