"use client";

import { FlexRender, type Row, type RowData, type TableFeatures } from "@tanstack/react-table";
import { TableCell, TableRow } from "@/components/ui/table";

/**
 * A TanStack table's rows, each cell rendered by its column; `stateOf` marks a row (`data-state`)
 * for styling, `columnClass` gives a column's cells their classes (to hide it on a phone).
 */
export function DataTableRows<TFeatures extends TableFeatures, TData extends RowData>({
  rows,
  stateOf,
  columnClass,
}: {
  rows: Row<TFeatures, TData>[];
  stateOf?: (row: TData) => string;
  columnClass?: (columnId: string) => string | undefined;
}) {
  return rows.map((row) => (
    <TableRow key={row.id} data-state={stateOf?.(row.original)}>
      {row.getAllCells().map((cell) => (
        <TableCell key={cell.id} className={columnClass?.(cell.column.id)}>
          <FlexRender cell={cell} />
        </TableCell>
      ))}
    </TableRow>
  ));
}
