/** PUBLIC_BASE_URL without its trailing slash, or null when it is not set. */
export function configuredBaseUrl(): string | null {
  return process.env.PUBLIC_BASE_URL?.replace(/\/$/, "") ?? null;
}

/**
 * The address links in messages sent in the background (emails, Slack) lead to: PUBLIC_BASE_URL,
 * or this server on its own port. No request is at hand there to read the host from.
 */
export function linkBaseUrl(): string {
  return configuredBaseUrl() ?? `http://localhost:${process.env.PORT ?? 3000}`;
}
