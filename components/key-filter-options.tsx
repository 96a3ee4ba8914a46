import { FilterSelect } from "@/components/log-filters";
import { SelectItem } from "@/components/ui/select";

import type { KeyNameDto } from "@/db/queries/api-keys";

/** A key as the logs' key filters list it. */
export type KeyOptionDto = KeyNameDto;

/**
 * The key filter of the audit log, the activity history and Usage: every key of the organization
 * (revoked ones marked), and a shared link's unknown key; the closed select shows the key's name.
 */
export function KeyFilterSelect({ keys, value, onChange }: { keys: KeyOptionDto[]; value: string | undefined; onChange: (key: string | undefined) => void }) {
  return (
    <FilterSelect id="filter-key" label="API key" value={value} onChange={onChange} anyLabel="All keys" display={keys.find((key) => key.id === value)?.name}>
      {keys.map((key) => (
        <SelectItem key={key.id} value={key.id}>
          {key.name} <span className="font-mono text-xs text-muted-foreground">{key.hint}</span>
          {key.revoked ? <span className="text-xs text-muted-foreground"> · revoked</span> : null}
        </SelectItem>
      ))}
      {value && !keys.some((key) => key.id === value) ? <SelectItem value={value}>Unknown key</SelectItem> : null}
    </FilterSelect>
  );
}
