"use client";

import { Bell, ChartColumn, CreditCard, Fingerprint, History, Mail, Webhook, KeyRound, ScrollText, ShieldCheck, Users } from "lucide-react";
import Link from "next/link";
import { usePathname, useRouter } from "next/navigation";
import { useEffect, useRef } from "react";
import type { Role } from "@/core/enums";
import { can } from "@/lib/authz";
import { cn } from "@/lib/utils";

const GROUPS = [
  {
    title: "API Access and Activity",
    items: [
      { label: "API keys", href: "/settings/api", icon: KeyRound, exclude: ["/settings/api/usage", "/settings/api/audit", "/settings/api/activity", "/settings/api/policy"] },
      { label: "Key policy", href: "/settings/api/policy", icon: ShieldCheck },
      { label: "Usage", href: "/settings/api/usage", icon: ChartColumn, permission: "usage.view" },
      { label: "Audit log", href: "/settings/api/audit", icon: ScrollText, permission: "audit.view" },
      { label: "Activity", href: "/settings/api/activity", icon: History, permission: "activity.view" },
    ],
  },
  {
    title: "Organization",
    items: [
      { label: "Members", href: "/settings/members", icon: Users, permission: "members.view" },
      { label: "Plan", href: "/settings/plan", icon: CreditCard },
    ],
  },
  {
    title: "Notifications",
    items: [
      { label: "Alerts", href: "/settings/alerts", icon: Bell, permission: "alerts.view" },
      { label: "Email", href: "/settings/notifications", icon: Mail, permission: "alerts.view" },
      { label: "Webhooks", href: "/settings/webhooks", icon: Webhook, permission: "notifications.manage" },
    ],
  },
  {
    title: "Your account",
    // The person's own, outside any organization: the same page from every organization.
    items: [{ label: "Security", href: "/settings/security", icon: Fingerprint, account: true }],
  },
] as const;

/**
 * `permission`: what a page's route requires (its layout answers 404 without it), so the
 * list leaves the page out for a role without it. The pages check it themselves as well.
 *
 * A link prefetches its page when the pointer or the keyboard comes to it, not when it is drawn:
 * drawn, the eleven of them sent some twenty requests on every page, alongside the page's own
 * loading (docs/decisions/0063-shared-page-weight.md).
 */
export function SettingsNav({ orgSlug, role }: { orgSlug: string; role: Role }) {
  const pathname = usePathname();
  const router = useRouter();
  const nav = useRef<HTMLElement>(null);
  // Below lg the nav is one row that scrolls sideways: bring the current page's tab into view, in
  // the middle where it fits, by scrolling the row alone (scrollIntoView would scroll the page too).
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
      {GROUPS.map((group) => (
        <div key={group.title} className="min-w-fit">
          <h2 className="mb-2 hidden px-3 text-xs font-semibold uppercase tracking-wide text-muted-foreground lg:block">{group.title}</h2>
          <ul className="flex gap-1 lg:flex-col">
            {group.items.filter((item) => !("permission" in item) || can(role, item.permission)).map((item) => {
              const href = "account" in item ? item.href : `/${orgSlug}${item.href}`;
              const excluded = "exclude" in item && item.exclude.some((path) => pathname.startsWith(`/${orgSlug}${path}`));
              const active = !excluded && (pathname === href || pathname.startsWith(`${href}/`));
              const Icon = item.icon;
              return (
                <li key={item.href}>
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
                    <Icon className="size-4" aria-hidden />
                    {item.label}
                  </Link>
                </li>
              );
            })}
          </ul>
        </div>
      ))}
    </nav>
  );
}
