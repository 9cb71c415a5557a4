/**
 * A `useResource` loader that logs its failure with `console.error(failureLog, error)` (unless
 * the request was aborted: the page was left or the key changed) and throws it again, so the
 * page still sees `error`.
 *
 * ```ts ignore
 * const list = useResource(["widgets"], loggedLoader(fetchWidgets, "Error fetching widgets"));
 * ```
 */
export function loggedLoader<T>(
  load: (signal: AbortSignal) => Promise<T>,
  failureLog: string,
): (signal: AbortSignal) => Promise<T> {
  return async (signal) => {
    try {
      return await load(signal);
    } catch (error) {
      if (!signal.aborted) console.error(failureLog, error);
      throw error;
    }
  };
}
