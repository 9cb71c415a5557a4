/**
 * A server process for the exactly-once tests, with the test feed registered:
 * - `poll ID CRASH_AFTER`: polls source ID once and kills itself (SIGKILL) right after the
 *   CRASH_AFTER-th claim has committed, before the message is marked on the server;
 * - `worker` / `server`: the real worker (`deno task worker`) or HTTP server with its jobs.
 * With `EXIT_WHEN_DONE=N` it stops cleanly once N import runs are finished.
 * Settings come from the environment as for any process (DATABASE_URL, DATA_DIR, SECRET_KEY...).
 */
import "./test_feed.ts";
import { loadConfig } from "../../api/config.ts";
import { openDeps, startServer } from "../../api/server.ts";
import { startWorker } from "../../api/worker.ts";
import { pollMailbox } from "../../api/ingest/mailbox_poll.ts";

const config = loadConfig();
const [mode, ...args] = Deno.args;

if (mode === "poll") {
  const deps = await openDeps(config, () => {});
  let claims = 0;
  const crashAfter = Number(args[1]);
  await pollMailbox(deps, Number(args[0]), {
    afterClaim: () => {
      if (++claims === crashAfter) Deno.kill(Deno.pid, "SIGKILL");
    },
  });
  await deps.db.close();
  Deno.exit(0);
}

const running = mode === "server"
  ? await startServer(config, { log: () => {} })
  : await startWorker(config, () => {});

const expected = Number(Deno.env.get("EXIT_WHEN_DONE") ?? 0);
if (expected) {
  while (true) {
    const [row] = await running.deps.db.query<{ done: number }>(
      `select count(*)::int as done from import_runs where status <> 'queued'`,
    );
    if (row.done >= expected) break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  await ("shutdown" in running ? running.shutdown() : running.stop());
  Deno.exit(0);
}
