// The interactive API reference: Scalar's standalone bundle, served by ./scalar.js from the npm
// package (no CDN), rendering the document the API serves. A page of its own, outside the
// dashboard's layout: the reference brings its own. (Not id="api-reference": the bundle mounts a
// second, unconfigured reference on an element with that id.)
const CONFIGURATION = {
  url: "/v1/openapi.json",
  authentication: { preferredSecurityScheme: "ApiKeyAuth" },
  // Nothing may load from outside this deployment: fonts, telemetry and the AI agent call scalar.com.
  withDefaultFonts: false,
  telemetry: false,
  agent: { disabled: true },
  showDeveloperTools: "never",
};

const PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>API reference · Invoicing</title>
  </head>
  <body>
    <noscript>The reference needs JavaScript. The OpenAPI document itself is at <a href="/v1/openapi.json">/v1/openapi.json</a>.</noscript>
    <div id="reference"></div>
    <script src="/docs/scalar.js"></script>
    <script>Scalar.createApiReference("#reference", ${JSON.stringify(CONFIGURATION)});</script>
  </body>
</html>`;

export const dynamic = "force-static";

export function GET(): Response {
  return new Response(PAGE, { headers: { "Content-Type": "text/html; charset=utf-8" } });
}
