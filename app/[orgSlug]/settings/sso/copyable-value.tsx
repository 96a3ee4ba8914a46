import { CopyButton } from "@/components/copy-button";

/** A value to paste elsewhere (a redirect URI, a DNS record's name or value): its label, the value in full, and a copy button. */
export function CopyableValue({ label, value }: { label: string; value: string }) {
  return (
    <div className="min-w-0 space-y-1">
      <dt className="text-xs font-medium uppercase tracking-wide text-muted-foreground">{label}</dt>
      <dd className="flex items-center gap-2">
        <code className="min-w-0 flex-1 rounded-md border bg-muted/40 px-2 py-1.5 font-mono text-xs break-all">{value}</code>
        <CopyButton value={value} label={`Copy ${label.toLowerCase()}`} size="icon" />
      </dd>
    </div>
  );
}
