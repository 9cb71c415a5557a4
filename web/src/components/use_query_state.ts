import { useCallback } from "react";
import { useSearchParams } from "wouter";

/** A change to the query string: a value sets the parameter, null or "" removes it. */
export type QueryPatch = Record<string, string | null | undefined>;

/**
 * The page's query string as state (docs/web_decisions.md, "List state in the URL"): a list's
 * filters, sort and page live there, so Back and refresh keep them. `update` replaces the
 * history entry (typing a filter does not add one entry per letter).
 */
export function useQueryState(): [URLSearchParams, (patch: QueryPatch) => void] {
  const [params, setParams] = useSearchParams();
  const update = useCallback((patch: QueryPatch) => {
    setParams((old) => {
      const next = new URLSearchParams(old);
      for (const [key, value] of Object.entries(patch)) {
        if (value === null || value === undefined || value === "") next.delete(key);
        else next.set(key, value);
      }
      return next;
    }, { replace: true });
  }, [setParams]);
  return [params, update];
}
