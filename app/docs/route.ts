// The interactive API reference: Scalar's standalone bundle, served by ./scalar.js from the npm
// package (no CDN), rendering the document the API serves. A page of its own, outside the
// dashboard's layout: the reference brings its own. (Not id="api-reference": the bundle mounts a
// second, unconfigured reference on an element with that id.)
// Scalar's default palette fails WCAG's 4.5:1 for body text: its secondary and muted greys and its
// method and syntax colours (GET blue, POST green, PATCH yellow, DELETE red, "required" orange)
// on white and on its #f6f6f6 panels. These darker shades clear 4.5:1 on both (and the dark mode's
// muted grey and red on its panels); the rest of the theme stays Scalar's.
// Two of the introduction's cards are hidden: the authentication card's value editor has no name
// and the client-library card is a tablist of buttons with unnamed copy buttons (axe:
// aria-input-field-name, aria-required-children, button-name). The introduction's text says how to
// authenticate, and each operation's code sample keeps its own language menu. The descriptions'
// code samples wrap instead of scrolling in a region a keyboard cannot reach
// (scrollable-region-focusable). docs/features/dashboard.md, "The API reference".
const THEME_CSS = `
.light-mode {
  --scalar-color-2: #5f5f5f;
  --scalar-color-3: #666666;
  --scalar-color-accent: #0069b4;
  --scalar-color-blue: #0069b4;
  --scalar-color-green: #00754a;
  --scalar-color-red: #c70000;
  --scalar-color-orange: #b33d00;
  --scalar-color-yellow: #876500;
}
.scalar-app .scalar-reference-intro-auth, .scalar-app .scalar-reference-intro-clients { display: none !important; }
.scalar-app pre code.hljs, .scalar-app pre code.hljs * { white-space: pre-wrap !important; overflow-wrap: anywhere; }
.dark-mode {
  --scalar-color-3: #a0a0a0;
  --scalar-color-red: #ff6161;
}`;

const CONFIGURATION = {
  url: "/v1/openapi.json",
  authentication: { preferredSecurityScheme: "ApiKeyAuth" },
  // Nothing may load from outside this deployment: fonts, telemetry and the AI agent call scalar.com.
  withDefaultFonts: false,
  telemetry: false,
  agent: { disabled: true },
  showDeveloperTools: "never",
  customCss: THEME_CSS,
  // Every tag open: a collapsed tag's "Show More" button is named "Show all … endpoints", which
  // does not contain the words it shows (label-content-name-mismatch).
  defaultOpenAllTags: true,
  // The models section repeats the schemas each operation shows, inside buttons that hold other
  // controls (nested-interactive).
  hideModels: true,
};

// The scripts carry the nonce of the CSP that proxy.ts sets for this request.
const page = (nonce: string) => `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>API reference · Invoicing</title>
  </head>
  <body>
    <noscript>The reference needs JavaScript. The OpenAPI document itself is at <a href="/v1/openapi.json">/v1/openapi.json</a>.</noscript>
    <div id="reference"></div>
    <script nonce="${nonce}" src="/docs/scalar.js"></script>
    <script nonce="${nonce}">Scalar.createApiReference("#reference", ${JSON.stringify(CONFIGURATION)});</script>
  </body>
</html>`;

export function GET(request: Request): Response {
  const nonce = request.headers.get("x-nonce");
  if (!nonce) throw new Error("No CSP nonce on the request to /docs: proxy.ts must run for it.");
  return new Response(page(nonce), { headers: { "Content-Type": "text/html; charset=utf-8" } });
}
