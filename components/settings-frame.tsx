import type { Role } from "@/core/enums";
import { SettingsNav } from "@/components/settings-nav";
import { MAIN_CONTENT_ID } from "@/components/skip-link";

/** A settings page beside the settings navigation: the organization's pages and the person's own. */
export function SettingsFrame({ orgSlug, role, children }: { orgSlug: string; role: Role; children: React.ReactNode }) {
  return (
    <div className="mx-auto flex w-full max-w-7xl flex-col gap-6 px-4 py-6 sm:px-6 lg:flex-row lg:gap-8 lg:py-10">
      <aside className="lg:w-48 lg:shrink-0">
        <SettingsNav orgSlug={orgSlug} role={role} />
      </aside>
      {/* Focusable from the skip link only; clear of the sticky header when scrolled to. */}
      <main id={MAIN_CONTENT_ID} tabIndex={-1} className="min-w-0 flex-1 scroll-mt-20 outline-none">
        {children}
      </main>
    </div>
  );
}
