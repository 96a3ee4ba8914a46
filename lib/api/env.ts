import type { HttpBindings } from "@hono/node-server";
import type { Plan } from "@/core/enums";
import type { ApiErrorBody, ApiErrorCode } from "./errors";

export interface ApiCaller {
  keyId: string;
  orgId: string;
  plan: Plan;
}

export type ApiEnv = {
  Bindings: Partial<HttpBindings>;
  /**
   * receivedAt: when the request arrived (epoch ms), its id's time and its audit row's.
   * errorCode, errorMessage, errorBody: the refusal rendered, for the audit row and its details.
   */
  Variables: { requestId: string; receivedAt: number; caller: ApiCaller; errorCode?: ApiErrorCode; errorMessage?: string; errorBody?: ApiErrorBody };
};
