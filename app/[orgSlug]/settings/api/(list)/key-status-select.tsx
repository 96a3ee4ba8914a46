"use client";

import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { KEY_STATUS_FILTERS, keyListQuery, keyListView, type KeyStatusFilter } from "@/lib/keys/list-view";

/** The key list's status filter: the choice goes into the URL (shareable, kept on reload) and the server draws the list. */
export function KeyStatusSelect({ status }: { status: KeyStatusFilter }) {
  const router = useRouter();
  const pathname = usePathname();
  const searchParams = useSearchParams();
  const choose = (value: string) => {
    const view = keyListView(Object.fromEntries(searchParams));
    router.push(`${pathname}${keyListQuery({ ...view, status: value as KeyStatusFilter })}`, { scroll: false });
  };
  return (
    <Select value={status} onValueChange={choose}>
      <SelectTrigger className="w-52" aria-label="Filter by status">
        <SelectValue />
      </SelectTrigger>
      <SelectContent>
        {Object.entries(KEY_STATUS_FILTERS).map(([value, { label }]) => (
          <SelectItem key={value} value={value}>
            {label}
          </SelectItem>
        ))}
      </SelectContent>
    </Select>
  );
}
