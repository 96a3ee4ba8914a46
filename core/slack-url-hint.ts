/**
 * A Slack incoming-webhook URL is its own credential (anyone with it can post): pages and the
 * history show its host and the end of its path only, as "https://hooks.slack.com/…/…x9Qf".
 */
export function slackUrlHint(url: string): string {
  const { origin, pathname } = new URL(url);
  const last = pathname.split("/").filter(Boolean).at(-1) ?? "";
  return `${origin}/…/…${last.slice(-4)}`;
}
