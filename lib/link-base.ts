/**
 * The address links in messages sent in the background (emails, Slack) lead to: PUBLIC_BASE_URL,
 * or this server on its own port. No request is at hand there to read the host from.
 */
export function linkBaseUrl(): string {
  return (process.env.PUBLIC_BASE_URL ?? `http://localhost:${process.env.PORT ?? 3000}`).replace(/\/$/, "");
}
