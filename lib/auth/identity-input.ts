import { z } from "zod";
import { signInInput } from "./input";
import { secondFactorProofInput } from "./two-factor-input";

/** What confirms a signed-in person again (sudo mode): their password, or a second factor. */
export const identityProofInput = z.discriminatedUnion("method", [
  z.object({ method: z.literal("password"), password: signInInput.shape.password }),
  ...secondFactorProofInput.options,
]);

export type IdentityProof = z.output<typeof identityProofInput>;
