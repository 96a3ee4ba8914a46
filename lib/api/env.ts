import type { HttpBindings } from "@hono/node-server";
import type { Plan } from "@/db/enums";

export interface ApiCaller {
  keyId: string;
  orgId: string;
  plan: Plan;
}

export type ApiEnv = {
  Bindings: Partial<HttpBindings>;
  Variables: { requestId: string; caller: ApiCaller };
};
