/**
 * Opens everything a server process needs, in order: database, migrations, first admin, secret
 * key, mail, the features' registrations; then serves HTTP. Used by main.ts and by the tests, so
 * both run the same start-up.
 */
import { createApp } from "./app.ts";
import type { Config } from "./config.ts";
import type { Deps } from "./deps.ts";
import { openDb } from "./db/client.ts";
import { migrate } from "./db/migrate.ts";
import { ensureFirstAdmin } from "./auth/bootstrap.ts";
import { loadSecretKey, secretBox } from "./secrets.ts";
import { systemMailer } from "./mail/system_mail.ts";
import { type JobsHandle, startJobs } from "./jobs/runner.ts";
import { registerFeatures } from "./feature.ts";
import { FEATURES } from "./features.ts";
import { setLogLevel, writeLog } from "./http/log.ts";
import { fileWorkFor } from "./ingest/file_work.ts";

/** A running server. */
export interface RunningServer {
  url: string;
  deps: Deps;
  /**
   * Graceful stop (SIGTERM): stops taking connections and waits for the requests in flight, stops
   * claiming jobs and lets the one in hand finish, both for at most `SHUTDOWN_GRACE_SECONDS`
   * (then the job is given back for another process); then closes the database, which releases
   * the embedded database's lock.
   */
  shutdown(): Promise<void>;
}

/**
 * Opens the long-lived services of a process (no HTTP): also what the worker and CLI use. It
 * registers the feature list's feeds, job handlers and schedules first, so every process that
 * opens the database can also run its jobs and read its mail.
 */
export async function openDeps(
  config: Config,
  log: (line: string) => void = (line) => writeLog("info", line),
): Promise<Deps> {
  setLogLevel(config.LOG_LEVEL);
  registerFeatures(FEATURES);
  const db = await openDb({
    url: config.DATABASE_URL,
    poolSize: config.DATABASE_POOL_SIZE,
    dataDir: config.DATA_DIR === "memory://" ? "memory://" : `${config.DATA_DIR}/pglite`,
  });
  try {
    const applied = await migrate(db);
    if (applied.length) log(`Applied migrations: ${applied.join(", ")}`);
    const admin = await ensureFirstAdmin(db, config.ADMIN_PASSWORD);
    if (admin.created && admin.generatedPassword) {
      log(`Created user "admin" with password: ${admin.generatedPassword}`);
      log("This password is shown only once. Change it on the Account page.");
    } else if (admin.created) log(`Created user "admin" with the password from ADMIN_PASSWORD.`);
    const keyDir = config.DATA_DIR === "memory://" ? undefined : config.DATA_DIR;
    const key = await loadSecretKey(config.SECRET_KEY, keyDir);
    return { config, db, secrets: await secretBox(key), mailer: await systemMailer(config) };
  } catch (error) {
    await db.close();
    throw error;
  }
}

/**
 * Starts the HTTP server on `config.HOST:config.PORT` (port 0 picks a free one), and the
 * background jobs (mailbox polls, import runs) unless `jobs` (default `RUN_JOBS`) is false: tests
 * that poll synchronously with `pollMailbox` turn them off, and so does a web process deployed
 * beside workers.
 *
 * @example
 * ```ts ignore
 * const server = await startServer(loadConfig(), { webDist: "web/dist" });
 * console.log(server.url);
 * ```
 */
export async function startServer(
  config: Config,
  options: { webDist?: string; log?: (line: string) => void; jobs?: boolean } = {},
): Promise<RunningServer> {
  const deps = await openDeps(config, options.log);
  // Files are read and the inventory engine runs in workers, off the thread answering requests.
  deps.files = fileWorkFor(config);
  const runJobs = options.jobs ?? config.RUN_JOBS;
  const jobs: JobsHandle | null = runJobs ? startJobs(deps) : null;
  const app = createApp(deps, { webDist: options.webDist });
  const server = Deno.serve(
    { hostname: config.HOST, port: config.PORT, onListen: () => {} },
    app.fetch,
  );
  const { port } = server.addr as Deno.NetAddr;
  const host = config.HOST === "0.0.0.0" ? "127.0.0.1" : config.HOST;
  return {
    url: `http://${host}:${port}`,
    deps,
    async shutdown() {
      const graceMs = config.SHUTDOWN_GRACE_SECONDS * 1000;
      let timer: ReturnType<typeof setTimeout> | undefined;
      const httpDone = Promise.race([
        server.shutdown(),
        // A client that never finishes its request must not hold the exit forever.
        new Promise<void>((resolve) => timer = setTimeout(resolve, graceMs)),
      ]);
      await Promise.all([httpDone, jobs?.stop({ graceMs })]);
      clearTimeout(timer);
      deps.files?.close();
      await deps.db.close();
    },
  };
}
