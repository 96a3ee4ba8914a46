import { FilterSelect } from "@/components/log-filters";

import type { KeyNameDto } from "@/db/queries/api-keys";

/** A key as the logs' key filters list it. */
export type KeyOptionDto = KeyNameDto;

/**
 * The key filter of the audit log, the activity history and Usage: every key of the organization
 * (revoked ones marked), and a shared link's unknown key.
 */
export function KeyFilterSelect({ keys, value, onChange }: { keys: KeyOptionDto[]; value: string | undefined; onChange: (key: string | undefined) => void }) {
  return (
    <FilterSelect id="filter-key" label="API key" value={value} onChange={onChange} anyLabel="All keys">
      {keys.map((key) => (
        <option key={key.id} value={key.id}>
          {`${key.name} (${key.hint})${key.revoked ? " · revoked" : ""}`}
        </option>
      ))}
      {value && !keys.some((key) => key.id === value) ? <option value={value}>Unknown key</option> : null}
    </FilterSelect>
  );
}
