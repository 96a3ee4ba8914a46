"use server";

import { orgAction } from "@/lib/action";
import { createApiKeyInput, renameApiKeyInput, revokeApiKeyInput, rollApiKeyInput, updateKeyRestrictionsInput } from "@/lib/keys/input";
import { createKey, renameKey, restrictKey, revokeKey, rollKey } from "@/lib/keys/lifecycle";
import { deleteAllTestData, deleteTestDataInput } from "@/lib/test-mode/delete-test-data";

// Each key change as the dashboard calls it: its input, who may, whether sudo mode guards it, and the rule in lib/keys/lifecycle.ts.
export const createApiKeyAction = orgAction(createApiKeyInput, "keys.create", createKey);
export const rollApiKeyAction = orgAction(rollApiKeyInput, "keys.roll", rollKey, { sudo: true });
export const revokeApiKeyAction = orgAction(revokeApiKeyInput, "keys.revoke", revokeKey, { sudo: true });
export const renameApiKeyAction = orgAction(renameApiKeyInput, "keys.rename", renameKey);
export const updateKeyRestrictionsAction = orgAction(updateKeyRestrictionsInput, "keys.restrict", restrictKey);
// Test data is the organization's books too: owners only, in sudo mode (docs/features/test-mode.md#delete-all-test-data).
export const deleteTestDataAction = orgAction(deleteTestDataInput, "test_data.delete", deleteAllTestData, { sudo: true });
