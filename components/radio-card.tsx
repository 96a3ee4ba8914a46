import { Label } from "@/components/ui/label";
import { RadioGroupItem } from "@/components/ui/radio-group";
import { cn } from "@/lib/utils";

/** One choice of a RadioGroup drawn as a card: its name, what it does, and a ring when chosen. */
export function RadioCard({
  id,
  value,
  label,
  description,
  selected,
  disabled = false,
}: {
  id: string;
  value: string;
  label: string;
  description: string;
  selected: boolean;
  disabled?: boolean;
}) {
  return (
    <Label
      htmlFor={id}
      className={cn("flex items-start gap-3 rounded-md border p-3 font-normal", !disabled && "cursor-pointer", selected && "border-primary bg-primary/5")}
    >
      <RadioGroupItem id={id} value={value} disabled={disabled} className="mt-0.5" />
      <span className="grid gap-0.5">
        <span className="font-medium">{label}</span>
        <span className="text-sm text-muted-foreground">{description}</span>
      </span>
    </Label>
  );
}
