import type { HttpBindings } from "@hono/node-server";
import type { Mode, Plan } from "@/core/enums";
import type { ApiErrorBody, ApiErrorCode } from "./errors";

/** The calling key; its organization and mode are the books every handler reads and writes (docs/features/test-mode.md). */
export interface ApiCaller {
  keyId: string;
  orgId: string;
  mode: Mode;
  plan: Plan;
}

export type ApiEnv = {
  Bindings: Partial<HttpBindings>;
  /**
   * receivedAt: when the request arrived (epoch ms), its id's time and its audit row's.
   * traceId: the W3C trace the request belongs to (lib/api/trace-requests.ts), kept on its audit row.
   * credentials: the request's own (lib/api/request-capture.ts), kept out of everything stored.
   * errorCode, errorMessage, errorBody: the refusal rendered, for the audit row and its details.
   */
  Variables: {
    requestId: string;
    receivedAt: number;
    traceId: string;
    caller: ApiCaller;
    credentials: readonly string[];
    errorCode?: ApiErrorCode;
    errorMessage?: string;
    errorBody?: ApiErrorBody;
  };
};
