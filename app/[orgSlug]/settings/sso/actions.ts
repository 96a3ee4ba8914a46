"use server";

import { orgAction } from "@/lib/action";
import { addDomain, removeDomain, verifyDomain } from "@/lib/sso/domain-changes";
import { changeSsoRequirement, removeConnection, saveConnection } from "@/lib/sso/connection-changes";
import { addSsoDomainInput, requireSsoInput, saveSsoConnectionInput, ssoConnectionInput, ssoDomainInput } from "@/lib/sso/input";

// Each single sign-on change as the page calls it: owners only, every one in sudo mode, as each decides who may sign in to the organization (lib/sso/).
export const saveSsoConnectionAction = orgAction(saveSsoConnectionInput, "sso.manage", saveConnection, { sudo: true });
export const removeSsoConnectionAction = orgAction(ssoConnectionInput, "sso.manage", removeConnection, { sudo: true });
export const addSsoDomainAction = orgAction(addSsoDomainInput, "sso.manage", addDomain, { sudo: true });
export const verifySsoDomainAction = orgAction(ssoDomainInput, "sso.manage", verifyDomain, { sudo: true });
export const removeSsoDomainAction = orgAction(ssoDomainInput, "sso.manage", removeDomain, { sudo: true });
export const setSsoRequirementAction = orgAction(requireSsoInput, "sso.manage", changeSsoRequirement, { sudo: true });
