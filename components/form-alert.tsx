import { CircleAlert } from "lucide-react";
import { Alert, AlertDescription } from "@/components/ui/alert";

/** The form-level error of an action result, announced to screen readers. */
export function FormAlert({ children }: { children: React.ReactNode }) {
  return (
    <Alert variant="destructive" role="alert">
      <CircleAlert className="size-4" aria-hidden />
      <AlertDescription>{children}</AlertDescription>
    </Alert>
  );
}
