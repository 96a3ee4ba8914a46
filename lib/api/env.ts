import type { HttpBindings } from "@hono/node-server";
import type { Plan } from "@/core/enums";
import type { ApiErrorCode } from "./errors";

export interface ApiCaller {
  keyId: string;
  orgId: string;
  plan: Plan;
}

export type ApiEnv = {
  Bindings: Partial<HttpBindings>;
  /** errorCode: the code of the refusal rendered, for the audit row. */
  Variables: { requestId: string; caller: ApiCaller; errorCode?: ApiErrorCode };
};
