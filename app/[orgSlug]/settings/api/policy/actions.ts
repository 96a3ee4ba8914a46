"use server";

import { orgAction } from "@/lib/action";
import { keyPolicyInput } from "@/lib/keys/input";
import { changeKeyPolicy } from "@/lib/keys/policy-change";

// The key policy's change as the dashboard calls it: its input, who may, sudo mode (SPEC §16), and the rule in lib/keys/policy-change.ts.
export const setKeyPolicyAction = orgAction(keyPolicyInput, "keys.policy", changeKeyPolicy, { sudo: true });
