import { FormAlert } from "@/components/form-alert";
import { AlertDialogCancel, AlertDialogFooter } from "@/components/ui/alert-dialog";
import { Button, type ButtonVariant } from "@/components/ui/button";

/**
 * The end of a confirm dialog: the last attempt's refusal, if any, then Cancel and the button that
 * confirms (destructive unless told otherwise), both disabled while the action runs.
 */
export function ConfirmFooter({
  label,
  pendingLabel,
  pending,
  onConfirm,
  error = null,
  variant = "destructive",
}: {
  label: string;
  pendingLabel: string;
  pending: boolean;
  onConfirm: () => void;
  error?: string | null;
  variant?: Extract<ButtonVariant, "default" | "destructive">;
}) {
  return (
    <>
      {error ? <FormAlert>{error}</FormAlert> : null}
      <AlertDialogFooter>
        <AlertDialogCancel disabled={pending}>Cancel</AlertDialogCancel>
        <Button variant={variant} onClick={onConfirm} disabled={pending}>
          {pending ? pendingLabel : label}
        </Button>
      </AlertDialogFooter>
    </>
  );
}
