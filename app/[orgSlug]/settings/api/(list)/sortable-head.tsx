import { ArrowDown, ArrowUp, ArrowUpDown } from "lucide-react";
import Link from "next/link";
import { buttonVariants } from "@/components/ui/button-variants";
import { TableHead } from "@/components/ui/table";

/**
 * A column header that orders the list by a link to the ordered list's address: it works before
 * the page's JavaScript has loaded and keeps the order in the URL. `aria-sort` says the order.
 */
export function SortableHead({
  label,
  href,
  sorted,
  className,
}: {
  label: string;
  href: string;
  sorted: "ascending" | "descending" | null;
  className?: string;
}) {
  const Icon = sorted === "ascending" ? ArrowUp : sorted === "descending" ? ArrowDown : ArrowUpDown;
  return (
    <TableHead aria-sort={sorted ?? undefined} className={className}>
      <Link href={href} prefetch={false} scroll={false} replace className={buttonVariants({ variant: "ghost", size: "sm", className: "-ml-2 h-8 gap-1 px-2" })}>
        {label}
        <Icon className={sorted ? "size-3.5" : "size-3.5 opacity-40"} aria-hidden />
      </Link>
    </TableHead>
  );
}
