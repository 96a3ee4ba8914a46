import { Bell, ChartColumn, CreditCard, Fingerprint, History, LogIn, Mail, Webhook, KeyRound, ScrollText, ShieldCheck, Users, Waves } from "lucide-react";
import type { Role } from "@/core/enums";
import { SettingsNavLink, SettingsNavRow } from "@/components/settings-nav-links";
import { can } from "@/lib/authz";

const GROUPS = [
  {
    title: "API Access and Activity",
    items: [
      {
        label: "API keys",
        href: "/settings/api",
        icon: KeyRound,
        exclude: ["/settings/api/usage", "/settings/api/audit", "/settings/api/activity", "/settings/api/policy"],
      },
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
      { label: "Single sign-on", href: "/settings/sso", icon: LogIn, permission: "sso.manage" },
    ],
  },
  {
    title: "Notifications",
    items: [
      { label: "Alerts", href: "/settings/alerts", icon: Bell, permission: "alerts.view" },
      { label: "Email", href: "/settings/notifications", icon: Mail, permission: "alerts.view" },
      { label: "Webhooks", href: "/settings/webhooks", icon: Webhook, permission: "notifications.manage" },
      { label: "Log streams", href: "/settings/log-streams", icon: Waves, permission: "log_streams.manage" },
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
 * list leaves the page out for a role without it. The pages check it themselves as well. Drawn on
 * the server, icons included; only the links' current page and prefetch, and the row's scroll,
 * run in the browser (components/settings-nav-links.tsx).
 */
export function SettingsNav({ orgSlug, role }: { orgSlug: string; role: Role }) {
  return (
    <SettingsNavRow>
      {GROUPS.map((group) => (
        <div key={group.title} className="min-w-fit">
          <h2 className="mb-2 hidden px-3 text-xs font-semibold uppercase tracking-wide text-muted-foreground lg:block">{group.title}</h2>
          <ul className="flex gap-1 lg:flex-col">
            {group.items
              .filter((item) => !("permission" in item) || can(role, item.permission))
              .map((item) => {
                const Icon = item.icon;
                return (
                  <li key={item.href}>
                    <SettingsNavLink
                      href={"account" in item ? item.href : `/${orgSlug}${item.href}`}
                      excluded={"exclude" in item ? item.exclude.map((path) => `/${orgSlug}${path}`) : undefined}
                    >
                      <Icon className="size-4" aria-hidden />
                      {item.label}
                    </SettingsNavLink>
                  </li>
                );
              })}
          </ul>
        </div>
      ))}
    </SettingsNavRow>
  );
}
