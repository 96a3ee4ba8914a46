import { ReceiptText } from "lucide-react";
import Link from "next/link";
import { cn } from "@/lib/utils";

/**
 * `markOnlyOnPhone`: below the sm breakpoint only the mark shows (the name stays for screen readers), as in a crowded header.
 * Not prefetched: "/" redirects to the API keys page, whose data and code every other page would
 * otherwise download as it loads (docs/performance.md#page-weight-and-lighthouse).
 */
export function Logo({ href = "/", markOnlyOnPhone = false }: { href?: string; markOnlyOnPhone?: boolean }) {
  return (
    <Link href={href} prefetch={false} className="flex shrink-0 items-center gap-2 font-semibold tracking-tight">
      <span className="flex size-8 items-center justify-center rounded-lg bg-primary text-primary-foreground">
        <ReceiptText className="size-4" aria-hidden />
      </span>
      <span className={cn(markOnlyOnPhone && "sr-only sm:not-sr-only")}>Invoicing</span>
    </Link>
  );
}
