import { createHash } from "node:crypto";
import type { MiddlewareHandler } from "hono";
import { claimIdempotencyKey, completeIdempotencyKey, releaseIdempotencyKey, type IdempotentRequest } from "@/db/queries/idempotency";
import type { ApiEnv } from "./env";
import { ApiError, validationError } from "./errors";
import { IdempotencyHeaders } from "./schemas/common";
import { redactCredentials } from "./request-capture";

/** The response headers a replay repeats: those that describe the body. */
const REPLAYED_HEADERS = ["content-type", "content-disposition"];

/**
 * The key as stored: its SHA-256, so a credential a client put in it is not kept (docs/security.md#request-details-keep-no-credential), and
 * the primary key finds it as well as the key itself.
 */
export function idempotencyKeyDigest(key: string): string {
  return createHash("sha256").update(key).digest("hex");
}

/** The response to replay, without a credential of the request's that it repeats (a validation error naming a field, say). */
function storedBody(response: Uint8Array<ArrayBuffer>, contentType: string | undefined, secrets: readonly string[]): Uint8Array<ArrayBuffer> {
  if (!contentType?.startsWith("application/json")) return response;
  const text = new TextDecoder().decode(response);
  const redacted = redactCredentials(text, secrets);
  return redacted === text ? response : new TextEncoder().encode(redacted);
}

function requestHash(method: string, url: string, body: ArrayBuffer): string {
  const { pathname, search } = new URL(url);
  return createHash("sha256").update(`${method} ${pathname}${search}\n`).update(new Uint8Array(body)).digest("hex");
}

/**
 * `Idempotency-Key` on POST (Stripe's semantics, docs/features/api.md#idempotency-key): after the gateway has admitted the
 * request, so a replay is counted and logged like any call. The response is stored as soon as the
 * handler has answered, before the request's log row is written: a client that retries after any
 * later failure gets the first answer instead of a second invoice.
 */
export function idempotency(): MiddlewareHandler<ApiEnv> {
  return async (c, next) => {
    const header = c.req.header("idempotency-key");
    if (c.req.method !== "POST" || header === undefined) return next();
    // The route's own header check comes after this step, so the same schema refuses here first.
    const parsed = IdempotencyHeaders.safeParse({ "idempotency-key": header });
    if (!parsed.success) throw validationError(parsed.error, "header");

    const { orgId, mode, keyId } = c.get("caller");
    const request: IdempotentRequest = {
      orgId,
      mode,
      key: idempotencyKeyDigest(header),
      apiKeyId: keyId,
      requestHash: requestHash(c.req.method, c.req.url, await c.req.arrayBuffer()),
    };
    const claim = await claimIdempotencyKey(request);
    if (claim.kind === "reused") {
      throw ApiError.of(
        "idempotency_key_reused",
        "This Idempotency-Key was used with a different request in the last 24 hours. Use a new key for a new request.",
      );
    }
    if (claim.kind === "in_use") {
      throw ApiError.of("idempotency_key_in_use", "A request with this Idempotency-Key is still running. Retry once it has finished.");
    }
    if (claim.kind === "replay") {
      const { status, headers, body } = claim.response;
      return c.body(body as Uint8Array<ArrayBuffer>, status as 200, { ...headers, "Idempotent-Replayed": "true" });
    }

    try {
      await next();
    } catch (error) {
      await releaseIdempotencyKey(request);
      throw error;
    }
    if (c.res.status >= 500) {
      // Nothing of ours committed that a retry should not redo: give the key back.
      await releaseIdempotencyKey(request);
      return;
    }
    const headers = Object.fromEntries(REPLAYED_HEADERS.flatMap((name) => (c.res.headers.has(name) ? [[name, c.res.headers.get(name)!]] : [])));
    const body = storedBody(new Uint8Array(await c.res.clone().arrayBuffer()), headers["content-type"], c.get("credentials"));
    await completeIdempotencyKey(request, { status: c.res.status, headers, body });
  };
}
