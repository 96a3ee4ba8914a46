import { ChevronLeft, ChevronRight } from "lucide-react";
import Link from "next/link";
import { Button } from "@/components/ui/button";

/** A link to the previous or next page, drawn as a disabled button at either end; `scroll` false keeps the reader's place (a table low on the page). */
export function PageLink({ href, label, icon, scroll = true }: { href: string | null; label: string; icon: "previous" | "next"; scroll?: boolean }) {
  const content = (
    <>
      {icon === "previous" ? <ChevronLeft className="size-4" aria-hidden /> : null}
      {label}
      {icon === "next" ? <ChevronRight className="size-4" aria-hidden /> : null}
    </>
  );
  if (!href) {
    return (
      <Button variant="outline" size="sm" disabled>
        {content}
      </Button>
    );
  }
  return (
    <Button variant="outline" size="sm" asChild>
      <Link href={href} scroll={scroll}>
        {content}
      </Link>
    </Button>
  );
}

/** "Newer" and "Older" under a keyset-paginated log, with how many entries this page holds. */
export function KeysetNav({
  label,
  count,
  noun,
  newerHref,
  olderHref,
}: {
  label: string;
  count: number;
  noun: [string, string];
  newerHref: string | null;
  olderHref: string | null;
}) {
  return (
    <nav aria-label={label} className="flex items-center justify-between gap-3">
      <p className="text-sm text-muted-foreground">
        {count} {count === 1 ? noun[0] : noun[1]} on this page
      </p>
      <div className="flex gap-2">
        <PageLink href={newerHref} label="Newer" icon="previous" />
        <PageLink href={olderHref} label="Older" icon="next" />
      </div>
    </nav>
  );
}
