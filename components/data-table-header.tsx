"use client";

import { FlexRender, type Column_RowSorting, type HeaderGroup, type RowData, type rowSortingFeature, type TableFeatures } from "@tanstack/react-table";
import { ArrowDown, ArrowUp, ArrowUpDown } from "lucide-react";
import { Button } from "@/components/ui/button";
import { TableHead, TableRow } from "@/components/ui/table";

function SortIcon({ direction }: { direction: false | "asc" | "desc" }) {
  if (direction === "asc") return <ArrowUp className="size-3.5" aria-hidden />;
  if (direction === "desc") return <ArrowDown className="size-3.5" aria-hidden />;
  return <ArrowUpDown className="size-3.5 opacity-40" aria-hidden />;
}

/**
 * A TanStack table's header: a sortable column's title is a button that cycles its order, and
 * its cell says the order to assistive technology (aria-sort). `columnClass` as for the rows.
 */
export function DataTableHeader<TFeatures extends TableFeatures & { rowSortingFeature: typeof rowSortingFeature }, TData extends RowData>({
  groups,
  columnClass,
}: {
  groups: HeaderGroup<TFeatures, TData>[];
  columnClass?: (columnId: string) => string | undefined;
}) {
  return groups.map((group) => (
    <TableRow key={group.id}>
      {group.headers.map((header) => {
        // The constraint on TFeatures guarantees the sorting API; TypeScript cannot resolve the feature map of a generic.
        const column = header.column as typeof header.column & Column_RowSorting<TFeatures, TData>;
        const sorted = column.getIsSorted();
        return (
          <TableHead
            key={header.id}
            className={columnClass?.(header.column.id)}
            aria-sort={sorted === "asc" ? "ascending" : sorted === "desc" ? "descending" : undefined}
          >
            {header.isPlaceholder ? null : column.getCanSort() ? (
              <Button variant="ghost" size="sm" className="-ml-2 h-8 gap-1 px-2" onClick={column.getToggleSortingHandler()}>
                <FlexRender header={header} />
                <SortIcon direction={sorted} />
              </Button>
            ) : (
              <FlexRender header={header} />
            )}
          </TableHead>
        );
      })}
    </TableRow>
  ));
}
