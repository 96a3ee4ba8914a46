"use client";

import Link from "next/link";
import { usePathname, useRouter } from "next/navigation";
import { useEffect, useRef, type ReactNode } from "react";
import { cn } from "@/lib/utils";
import { useModeHref } from "@/components/test-mode";

/**
 * The settings nav's row. Below lg it is one row that scrolls sideways: it brings the current
 * page's tab into view, in the middle where it fits, by scrolling the row alone (scrollIntoView
 * would scroll the page too).
 */
export function SettingsNavRow({ children }: { children: ReactNode }) {
  const pathname = usePathname();
  const nav = useRef<HTMLElement>(null);
  useEffect(() => {
    const row = nav.current;
    const tab = row?.querySelector<HTMLElement>('[aria-current="page"]');
    if (!row || !tab || row.scrollWidth <= row.clientWidth) return;
    const rowBox = row.getBoundingClientRect();
    const tabBox = tab.getBoundingClientRect();
    row.scrollLeft += tabBox.left - rowBox.left - (rowBox.width - tabBox.width) / 2;
  }, [pathname]);
  return (
    <nav ref={nav} aria-label="Settings" className="flex gap-6 overflow-x-auto lg:flex-col lg:overflow-visible">
      {children}
    </nav>
  );
}

/**
 * A settings page's link, current on its page and the pages under it (but those of `excluded`,
 * which have links of their own). It prefetches its page when the pointer or the keyboard comes to
 * it, not when it is drawn: drawn, the eleven of them sent some twenty requests on every page,
 * alongside the page's own loading (docs/decisions/0063-shared-page-weight.md).
 */
export function SettingsNavLink({ href: page, excluded = [], children }: { href: string; excluded?: string[]; children: ReactNode }) {
  const pathname = usePathname();
  const router = useRouter();
  const href = useModeHref(page);
  const active = !excluded.some((path) => pathname.startsWith(path)) && (pathname === page || pathname.startsWith(`${page}/`));
  return (
    <Link
      href={href}
      prefetch={false}
      onMouseEnter={() => router.prefetch(href)}
      onFocus={() => router.prefetch(href)}
      onTouchStart={() => router.prefetch(href)}
      aria-current={active ? "page" : undefined}
      className={cn(
        "flex items-center gap-2 whitespace-nowrap rounded-md px-3 py-2 text-sm font-medium text-muted-foreground transition-colors hover:bg-accent hover:text-accent-foreground",
        active && "bg-accent text-accent-foreground",
      )}
    >
      {children}
    </Link>
  );
}
