"use server";

import { orgAction } from "@/lib/action";
import { keyPolicyInput } from "@/lib/keys/input";
import { changeKeyPolicy } from "@/lib/keys/policy-change";
import { leakedKeyResponseInput } from "@/lib/security/input";
import { changeLeakedKeyResponse } from "@/lib/security/leaked-key-response";

// The key policy's change as the dashboard calls it: its input, who may, sudo mode, and the rule in lib/keys/policy-change.ts.
export const setKeyPolicyAction = orgAction(keyPolicyInput, "keys.policy", changeKeyPolicy, { sudo: true });
// What a leaked key gets; owners only, and a security setting, so sudo mode guards it.
export const setLeakedKeyResponseAction = orgAction(leakedKeyResponseInput, "security.manage", changeLeakedKeyResponse, { sudo: true });
