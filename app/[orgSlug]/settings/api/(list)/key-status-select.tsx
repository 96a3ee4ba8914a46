"use client";

import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { NativeSelect } from "@/components/ui/native-select";
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
    <NativeSelect value={status} onChange={(event) => choose(event.target.value)} wrapperClassName="w-52" aria-label="Filter by status">
      {Object.entries(KEY_STATUS_FILTERS).map(([value, { label }]) => (
        <option key={value} value={value}>
          {label}
        </option>
      ))}
    </NativeSelect>
  );
}
