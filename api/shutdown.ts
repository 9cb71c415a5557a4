/**
 * Stopping a process on SIGTERM or SIGINT (docs/operations.md, "Stopping"): the first signal
 * starts the graceful stop and exits 0 when it is done (1 when it failed); a second signal exits
 * at once with 130.
 */
import { log } from "./http/log.ts";

/**
 * Calls `stop` on the first SIGTERM/SIGINT, then exits.
 *
 * @example
 * ```ts ignore
 * onStopSignal("server", () => server.shutdown());
 * ```
 */
export function onStopSignal(what: string, stop: () => Promise<void>): void {
  let stopping = false;
  const handler = (signal: Deno.Signal) => () => {
    if (stopping) {
      log.warn(`${signal} again: exiting without waiting`);
      Deno.exit(130);
    }
    stopping = true;
    log.info(`${signal}: stopping the ${what}`);
    stop().then(
      () => {
        log.info(`${what} stopped`);
        Deno.exit(0);
      },
      (error) => {
        log.error(`${what} did not stop cleanly: ${(error as Error).message}`);
        Deno.exit(1);
      },
    );
  };
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    Deno.addSignalListener(signal, handler(signal));
  }
}
