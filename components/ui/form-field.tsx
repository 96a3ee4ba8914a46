import * as React from "react";
import { Label } from "@/components/ui/label";
import { cn } from "@/lib/utils";

type ControlProps = {
  id?: string;
  "aria-describedby"?: string;
  "aria-invalid"?: React.AriaAttributes["aria-invalid"];
};

type FormFieldProps = {
  label: React.ReactNode;
  /** The one control (Input, Textarea, SelectTrigger, ...). It gets the id, aria-describedby and aria-invalid. */
  children: React.ReactElement<ControlProps>;
  /** Help text under the control, linked with aria-describedby. */
  description?: React.ReactNode;
  /** The validation message; when set the control is aria-invalid and the message is announced (role="alert"). */
  error?: React.ReactNode;
  /** The control's id; generated when neither this nor the control's own id is given. */
  id?: string;
  className?: string;
  labelClassName?: string;
};

/** A label, a control, optional help text and an error message, wired together for assistive technology. */
function FormField({ label, children, description, error, id, className, labelClassName }: FormFieldProps) {
  const generated = React.useId();
  const controlId = id ?? children.props.id ?? `${generated}-control`;
  const descriptionId = `${controlId}-description`;
  const errorId = `${controlId}-error`;
  const hasError = error !== undefined && error !== null && error !== false && error !== "";

  const describedBy =
    [children.props["aria-describedby"], description ? descriptionId : null, hasError ? errorId : null].filter(Boolean).join(" ") || undefined;
  const control = React.cloneElement(children, {
    id: controlId,
    "aria-describedby": describedBy,
    "aria-invalid": hasError ? true : children.props["aria-invalid"],
  });

  return (
    <div data-slot="form-field" data-invalid={hasError || undefined} className={cn("grid gap-2", className)}>
      <Label htmlFor={controlId} className={cn(hasError && "text-destructive", labelClassName)}>
        {label}
      </Label>
      {control}
      {description ? (
        <div id={descriptionId} data-slot="form-field-description" className="text-sm text-muted-foreground">
          {description}
        </div>
      ) : null}
      {hasError ? (
        <p id={errorId} role="alert" data-slot="form-field-error" className="text-sm font-medium text-destructive">
          {error}
        </p>
      ) : null}
    </div>
  );
}

export { FormField, type FormFieldProps };
