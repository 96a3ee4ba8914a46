"use client";

import { FlaskConical, Trash2 } from "lucide-react";
import { useId, useState } from "react";
import { ConfirmFooter } from "@/components/confirm-footer";
import { toast } from "@/components/toast";
import { useConfirmAction } from "@/components/use-confirm-action";
import { AlertDialog, AlertDialogContent, AlertDialogDescription, AlertDialogHeader, AlertDialogTitle, AlertDialogTrigger } from "@/components/ui/alert-dialog";
import { Button } from "@/components/ui/button";
import { Card, CardDescription, CardFooter, CardHeader, CardTitle } from "@/components/ui/card";
import type { TestDataCounts } from "@/db/queries/test-data";
import { onlyHoldersCan } from "@/lib/authz";
import { deleteTestDataAction } from "../actions";

const number = new Intl.NumberFormat("en-US");
const counted = (n: number, noun: string) => `${number.format(n)} ${noun}${n === 1 ? "" : "s"}`;

/** "3 customers, 1 product and 12 invoices". */
function describeCounts({ customers, products, invoices }: TestDataCounts): string {
  return `${counted(customers, "customer")}, ${counted(products, "product")} and ${counted(invoices, "invoice")}`;
}

/**
 * The test books at a glance, and "Delete all test data" for owners (docs/features/test-mode.md#delete-all-test-data):
 * a clean slate for an integration's tests. Keys and request history stay.
 */
export function TestDataCard({ orgId, counts, canDelete }: { orgId: string; counts: TestDataCounts; canDelete: boolean }) {
  const [open, setOpen] = useState(false);
  const remove = useConfirmAction(deleteTestDataAction, {
    onSuccess: (deleted) => {
      setOpen(false);
      toast.success("Test data deleted", { description: `Deleted ${describeCounts(deleted)}.` });
    },
  });
  const empty = counts.customers + counts.products + counts.invoices === 0;
  const titleId = useId();
  return (
    <Card role="region" aria-labelledby={titleId}>
      <CardHeader>
        <CardTitle id={titleId} className="flex items-center gap-2 text-base">
          <FlaskConical className="size-4 text-warning-foreground" aria-hidden /> Test data
        </CardTitle>
        <CardDescription>
          {empty
            ? "Your test keys have made no customers, products or invoices yet."
            : `Your test keys have made ${describeCounts(counts)}. None of it is in your live books, analytics or invoice numbering.`}
        </CardDescription>
      </CardHeader>
      <CardFooter className="border-t">
        {canDelete ? (
          <AlertDialog open={open} onOpenChange={setOpen}>
            <AlertDialogTrigger asChild>
              <Button variant="outline" disabled={empty}>
                <Trash2 className="size-4" aria-hidden /> Delete all test data
              </Button>
            </AlertDialogTrigger>
            <AlertDialogContent>
              <AlertDialogHeader>
                <AlertDialogTitle>Delete all test data?</AlertDialogTitle>
                <AlertDialogDescription>
                  {`This deletes ${describeCounts(counts)} for good, and test invoice numbers start again at INV-000001. Your live data, every key and the request history stay.`}
                </AlertDialogDescription>
              </AlertDialogHeader>
              <ConfirmFooter
                label="Delete all test data"
                pendingLabel="Deleting…"
                pending={remove.pending}
                error={remove.error}
                onConfirm={() => remove.run({ orgId })}
              />
            </AlertDialogContent>
          </AlertDialog>
        ) : (
          <p className="text-sm text-muted-foreground">{onlyHoldersCan("test_data.delete", "delete the organization's test data")}</p>
        )}
      </CardFooter>
    </Card>
  );
}
