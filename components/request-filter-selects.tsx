"use client";

import { FilterSelect, withCurrent } from "@/components/log-filters";

/**
 * The endpoint and method filters of the views over the request log (the audit log, Usage): the
 * organization's own endpoints and methods, and a shared link's value even when it is not one.
 */

export function EndpointFilterSelect({
  endpoints,
  value,
  onChange,
}: {
  endpoints: string[];
  value: string | undefined;
  onChange: (endpoint: string | undefined) => void;
}) {
  return (
    <FilterSelect id="filter-endpoint" label="Endpoint" value={value} onChange={onChange} anyLabel="All endpoints" className="col-span-2 lg:col-span-1">
      {withCurrent(endpoints, value).map((endpoint) => (
        <option key={endpoint} value={endpoint}>
          {endpoint}
        </option>
      ))}
    </FilterSelect>
  );
}

export function MethodFilterSelect({
  methods,
  value,
  onChange,
}: {
  methods: string[];
  value: string | undefined;
  onChange: (method: string | undefined) => void;
}) {
  return (
    <FilterSelect id="filter-method" label="Method" value={value} onChange={onChange} anyLabel="All methods">
      {withCurrent(methods, value).map((method) => (
        <option key={method} value={method}>
          {method}
        </option>
      ))}
    </FilterSelect>
  );
}
