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
          Send the key in the <code className="rounded bg-muted px-1 py-0.5 text-xs">X-API-Key</code> header. Base address: <code className="rounded bg-muted px-1 py-0.5 text-xs">{baseUrl}/v1</code>
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-3">
        <div className="relative">
          <pre className="overflow-x-auto rounded-lg bg-zinc-950 p-4 pr-24 text-sm text-zinc-100" aria-label="curl example">
            <code>{example}</code>
          </pre>
          <div className="absolute top-2 right-2">
            <CopyButton value={example} label="Copy curl example" variant="secondary" />
          </div>
        </div>
        <Link href="/docs" className="inline-flex items-center gap-1.5 text-sm font-medium text-primary hover:underline">
          <BookOpen className="size-4" aria-hidden /> Read the API reference
        </Link>
      </CardContent>
    </Card>
  );
}
