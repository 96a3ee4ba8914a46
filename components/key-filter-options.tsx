import { SelectItem } from "@/components/ui/select";

import type { KeyNameDto } from "@/db/queries/api-keys";

/** A key as the logs' key filters list it. */
export type KeyOptionDto = KeyNameDto;

export function keyFilterDisplay(keys: KeyOptionDto[], current: string | undefined): string | undefined {
  return keys.find((key) => key.id === current)?.name;
}

/** The options of a key filter: every key of the organization, and a shared link's unknown key. */
export function KeyFilterOptions({ keys, current }: { keys: KeyOptionDto[]; current: string | undefined }) {
  return (
    <>
      {keys.map((key) => (
        <SelectItem key={key.id} value={key.id}>
          {key.name} <span className="font-mono text-xs text-muted-foreground">{key.hint}</span>
          {key.revoked ? <span className="text-xs text-muted-foreground"> · revoked</span> : null}
        </SelectItem>
      ))}
      {current && !keys.some((key) => key.id === current) ? <SelectItem value={current}>Unknown key</SelectItem> : null}
    </>
  );
}
