import { BookOpen, Terminal } from "lucide-react";
import Link from "next/link";
import { CopyButton } from "@/components/copy-button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";

function curlExample(baseUrl: string): string {
  return `curl ${baseUrl}/v1/invoices \\\n  -H "X-API-Key: $INVOICING_API_KEY"`;
}

/** A first call to copy, with the address this deployment answers on. */
export function ApiQuickstart({ baseUrl, title = "Make your first call" }: { baseUrl: string; title?: string }) {
  const example = curlExample(baseUrl);
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2 text-base">
          <Terminal className="size-4" aria-hidden /> {title}
        </CardTitle>
        <CardDescription>
          Send the key in the <code className="rounded bg-muted px-1 py-0.5 text-xs">X-API-Key</code> header. Base address:{" "}
          <code className="rounded bg-muted px-1 py-0.5 text-xs">{baseUrl}/v1</code>
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-3">
        {/* The copy button sits in a bar of its own above the code, never over it: at phone width
            the command scrolls sideways and its end would hide under a floating button. */}
        <div className="overflow-hidden rounded-lg bg-zinc-950">
          <div className="flex items-center justify-between border-b border-zinc-800 py-1 pr-1 pl-4">
            <span className="text-xs font-medium text-zinc-400">Shell</span>
            <CopyButton
              value={example}
              label="Copy curl example"
              variant="ghost"
              size="icon-sm"
              className="text-zinc-300 hover:bg-zinc-800 hover:text-zinc-50"
            />
          </div>
          <pre className="overflow-x-auto p-4 text-sm text-zinc-100" aria-label="curl example">
            <code>{example}</code>
          </pre>
        </div>
        <Link href="/docs" className="inline-flex items-center gap-1.5 text-sm font-medium text-primary hover:underline">
          <BookOpen className="size-4" aria-hidden /> Read the API reference
        </Link>
      </CardContent>
    </Card>
  );
}
