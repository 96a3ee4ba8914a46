"use client";

import { FilterSelect, withCurrent } from "@/components/log-filters";
import { SelectItem } from "@/components/ui/select";

/**
 * The endpoint and method filters of the views over the request log (the audit log, Usage): the
 * organization's own endpoints and methods, and a shared link's value even when it is not one.
 */

export function EndpointFilterSelect({ endpoints, value, onChange }: { endpoints: string[]; value: string | undefined; onChange: (endpoint: string | undefined) => void }) {
  return (
    <FilterSelect id="filter-endpoint" label="Endpoint" value={value} onChange={onChange} anyLabel="All endpoints" className="col-span-2 lg:col-span-1">
      {withCurrent(endpoints, value).map((endpoint) => (
        <SelectItem key={endpoint} value={endpoint} className="font-mono text-xs">
          {endpoint}
        </SelectItem>
      ))}
    </FilterSelect>
  );
}

export function MethodFilterSelect({ methods, value, onChange }: { methods: string[]; value: string | undefined; onChange: (method: string | undefined) => void }) {
  return (
    <FilterSelect id="filter-method" label="Method" value={value} onChange={onChange} anyLabel="All methods">
      {withCurrent(methods, value).map((method) => (
        <SelectItem key={method} value={method} className="font-mono text-xs">
          {method}
        </SelectItem>
      ))}
    </FilterSelect>
  );
}
