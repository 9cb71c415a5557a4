import { useCallback, useEffect, useRef, useState } from "react";

/** What {@link useResource} gives a page. */
export interface Resource<T> {
  /** The last answer for the current key; kept while a reload runs, cleared on a new key. */
  data: T | undefined;
  /** Why the last load failed (usually an ApiError), or undefined. */
  error: unknown;
  /** True while a load for the current key runs. */
  loading: boolean;
  /** Loads again with the same key. */
  reload(): void;
  /** Changes the data in place (after a delete, a save), without loading. */
  setData(update: (old: T | undefined) => T | undefined): void;
}

/**
 * Loads data for a page (docs/web_decisions.md, "Loading data"): runs `loader` when the
 * component mounts and whenever `key` changes (compared as JSON; `null` loads nothing), passes
 * it an AbortSignal that fires on unmount or on the next key, and never lets an older answer
 * overwrite a newer one. `keepPrevious` keeps showing the last data while another key loads.
 *
 * ```ts ignore
 * const users = useResource(["users"], (signal) => fetchUsers(signal));
 * if (users.loading && !users.data) return <Loading />;
 * ```
 */
export function useResource<T>(
  key: unknown,
  loader: (signal: AbortSignal) => Promise<T>,
  options: { keepPrevious?: boolean } = {},
): Resource<T> {
  const keyText = key === null ? null : JSON.stringify(key);
  const [state, setState] = useState<{ key: string | null; data?: T; error?: unknown }>({
    key: null,
  });
  const [loading, setLoading] = useState(keyText !== null);
  const [round, setRound] = useState(0);
  const latest = useRef(0);
  // The loader of the latest render, so callers can pass an inline function.
  const loaderRef = useRef(loader);
  loaderRef.current = loader;

  useEffect(() => {
    if (keyText === null) {
      setLoading(false);
      return;
    }
    const id = ++latest.current;
    const controller = new AbortController();
    setLoading(true);
    loaderRef.current(controller.signal).then(
      (data) => {
        if (id !== latest.current) return;
        setState({ key: keyText, data });
        setLoading(false);
      },
      (error) => {
        if (id !== latest.current || controller.signal.aborted) return;
        setState((old) => ({
          key: keyText,
          data: old.key === keyText || options.keepPrevious ? old.data : undefined,
          error,
        }));
        setLoading(false);
      },
    );
    return () => controller.abort();
  }, [keyText, round]);

  const reload = useCallback(() => setRound((n) => n + 1), []);
  const setData = useCallback(
    (update: (old: T | undefined) => T | undefined) =>
      setState((old) => ({ ...old, data: update(old.data) })),
    [],
  );
  // Data of an older key is not shown as the new key's (another id), unless the caller asks
  // for it (a list keeps its rows while the next page or search loads).
  const current = state.key === keyText;
  return {
    data: current || options.keepPrevious ? state.data : undefined,
    error: current ? state.error : undefined,
    loading,
    reload,
    setData,
  };
}
