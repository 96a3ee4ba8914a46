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

// A bar above the reference with the Postman collection's download (docs/features/api.md, "Postman
// collection"), in Scalar's own colours and type, so it follows the light and dark modes. Scalar
// keeps its sticky sidebar and mobile header below a header of the page's own by
// --scalar-custom-header-height; the bar sticks too, so the link stays in reach. A banner landmark,
// so axe's region rule finds the link inside one.
const BAR_CSS = `
:root { --scalar-custom-header-height: 44px; }
body { margin: 0; }
.docs-bar {
  position: sticky; top: 0; z-index: 20; box-sizing: border-box; height: var(--scalar-custom-header-height);
  display: flex; align-items: center; justify-content: flex-end; padding: 0 16px;
  background: var(--scalar-background-1); border-bottom: var(--scalar-border-width, 1px) solid var(--scalar-border-color);
  font-family: var(--scalar-font); font-size: var(--scalar-small, 14px);
}
.docs-bar a {
  display: inline-flex; align-items: center; gap: 6px; border-radius: var(--scalar-radius, 3px);
  color: var(--scalar-color-accent); font-weight: var(--scalar-semibold, 500); text-decoration: none;
}
.docs-bar a:hover { text-decoration: underline; }
.docs-bar a:focus-visible { outline: 2px solid var(--scalar-color-accent); outline-offset: 2px; }
.docs-bar svg { flex: none; }`;

const POSTMAN_COLLECTION = "/docs/invoicing-api.postman_collection.json";
const DOWNLOAD_ICON = `<svg aria-hidden="true" width="16" height="16" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round"><path d="M12 15V3"/><path d="M21 15v4a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2v-4"/><path d="m7 10 5 5 5-5"/></svg>`;

// The scripts carry the nonce of the CSP that proxy.ts sets for this request.
const page = (nonce: string) => `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>API reference · Invoicing</title>
    <style>${BAR_CSS}</style>
  </head>
  <body>
    <header class="docs-bar"><a href="${POSTMAN_COLLECTION}" download>${DOWNLOAD_ICON}Download the Postman collection</a></header>
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
