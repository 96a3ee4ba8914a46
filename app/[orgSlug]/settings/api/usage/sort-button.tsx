"use client";

import { useRouter } from "next/navigation";
import { useTransition, type ReactNode } from "react";
import { Button } from "@/components/ui/button";

/** A breakdown column's title: a click orders the table by it, on the server, through the page's URL (`href`). */
export function SortButton({ href, children }: { href: string; children: ReactNode }) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  return (
    <Button
      variant="ghost"
      size="sm"
      className="-ml-2 h-8 gap-1 px-2"
      aria-busy={pending}
      onClick={() => startTransition(() => router.replace(href, { scroll: false }))}
    >
      {children}
    </Button>
  );
}
