import type { Metadata, Viewport } from "next";
import { connection } from "next/server";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Invoicing", template: "%s · Invoicing" },
  description: "Hosted invoicing with a REST API: invoices, customers, products, analytics and PDFs.",
};

export const viewport: Viewport = { width: "device-width", initialScale: 1 };

export default async function RootLayout({ children }: { children: React.ReactNode }) {
  // Rendered per request, never prerendered: Next.js puts the request's CSP nonce (proxy.ts) on
  // its scripts only while rendering, and a prerendered page's scripts would carry none.
  await connection();
  return (
    <html lang="en">
      {/* No providers here: what this layout renders comes to the sign-in page too. The dashboard's
          toasts are in its shell (components/dashboard-shell.tsx); a tooltip brings its own provider. */}
      <body className="min-h-dvh bg-background text-foreground antialiased">{children}</body>
    </html>
  );
}
