/**
 * PgBouncer (Debian's `pgbouncer`) in transaction pooling mode in front of the PostgreSQL of a
 * URL, on a free loopback port, for as long as a test needs it: the several-process test runs
 * the application through it (docs/operations.md, "PgBouncer").
 */
import { freePort } from "../../bench/app_process.ts";

/** A running PgBouncer. */
export interface PgBouncer {
  /** `url` with the host and port replaced by PgBouncer's. */
  via(url: string): string;
  stop(): Promise<void>;
}

/**
 * Starts PgBouncer for every database of the server at `serverUrl` (trust authentication, as the
 * test PostgreSQL has). PgBouncer refuses to run as root: as root it is started with `-u` and the
 * owner of the PostgreSQL data (`postgres`).
 *
 * @example
 * const bouncer = await startPgBouncer("postgres://postgres@127.0.0.1:5432/test");
 * const url = bouncer.via(databaseUrl) + "?prepare=false";
 * await bouncer.stop();
 */
export async function startPgBouncer(serverUrl: string): Promise<PgBouncer> {
  const server = new URL(serverUrl);
  const user = decodeURIComponent(server.username || "postgres");
  const port = freePort();
  const dir = await Deno.makeTempDir({ prefix: "pgbouncer-" });
  await Deno.chmod(dir, 0o755);
  const auth = `${dir}/users.txt`;
  await Deno.writeTextFile(auth, `"${user}" ""\n`);
  const ini = `${dir}/pgbouncer.ini`;
  await Deno.writeTextFile(
    ini,
    [
      "[databases]",
      `* = host=${server.hostname} port=${server.port || 5432}`,
      "[pgbouncer]",
      "listen_addr = 127.0.0.1",
      `listen_port = ${port}`,
      "unix_socket_dir =",
      "auth_type = trust",
      `auth_file = ${auth}`,
      "pool_mode = transaction",
      "max_client_conn = 1000",
      "default_pool_size = 20",
      // postgres.js sends it at connect; PgBouncer would refuse the connection otherwise.
      "ignore_startup_parameters = extra_float_digits",
    ].join("\n") + "\n",
  );
  const asRoot = Deno.uid() === 0;
  const child = new Deno.Command("pgbouncer", {
    args: [...(asRoot ? ["-u", "postgres"] : []), ini],
    stdout: "null",
    stderr: "piped",
  }).spawn();
  const errors: string[] = [];
  const reading = (async () => {
    for await (const chunk of child.stderr.pipeThrough(new TextDecoderStream())) {
      errors.push(chunk);
    }
  })();
  const deadline = Date.now() + 10_000;
  while (true) {
    try {
      (await Deno.connect({ hostname: "127.0.0.1", port })).close();
      break;
    } catch {
      if (Date.now() > deadline) {
        child.kill("SIGKILL");
        await reading;
        throw new Error(`PgBouncer did not start: ${errors.join("").slice(-500)}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  return {
    via(url) {
      const target = new URL(url);
      target.hostname = "127.0.0.1";
      target.port = String(port);
      return target.href;
    },
    async stop() {
      child.kill("SIGTERM");
      await child.status;
      await reading;
      await Deno.remove(dir, { recursive: true });
    },
  };
}
