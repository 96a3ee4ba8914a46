/**
 * Why the browser cannot use passkeys at `url`, or null when it can try. WebAuthn takes the page's
 * host name as the passkey's site (its relying party id) and refuses an IP address there with a
 * bare SecurityError ("This is an invalid domain"), so the dashboard opened as
 * http://127.0.0.1:3000 says which address works instead.
 */
export function passkeyHostProblem(url: URL): string | null {
  const { hostname, protocol, port } = url;
  const ipAddress = /^\d{1,3}(\.\d{1,3}){3}$/.test(hostname) || hostname.startsWith("[");
  if (!ipAddress) return null;
  const loopback = hostname.startsWith("127.") || hostname === "[::1]";
  const instead = loopback ? `open it at ${protocol}//localhost${port ? `:${port}` : ""}` : "open it by its host name";
  return `Passkeys need the dashboard's host name, not an IP address: ${instead}.`;
}

/** The browser's SecurityError at a host name: the passkey's site and this address differ. */
export const PASSKEY_WRONG_HOST =
  "The browser refused passkeys at this address: they work only at the dashboard's own host name. Open the dashboard at the address it was set up with and try again.";
