import { z } from "zod";
import { idSchema, nameSchema } from "@/lib/input-rules";
import { passkeyCredential, secondFactorProofInput } from "./two-factor-input";

export const PASSKEY_NAME_MAX = 60;

/** A new passkey: the name the Security page lists it by, and the device's answer to the challenge. */
export const addPasskeyInput = z.object({
  name: nameSchema(PASSKEY_NAME_MAX, "Name the passkey, such as “MacBook Touch ID” or “YubiKey”."),
  credential: passkeyCredential,
});

/** Removing a passkey: which one, and a second factor given again. */
export const removePasskeyInput = secondFactorProofInput.and(z.object({ passkeyId: idSchema }));
