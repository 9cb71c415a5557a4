/**
 * One process per PGlite directory (api/db/lock.ts), with real processes: a second server and a
 * worker on a directory a server holds fail at once naming the holder, while the CLI works (it
 * talks to the server's API, issue 15); a lock left by `kill -9` is taken over by the next start.
 */
import assert from "node:assert/strict";
import { generateSecretKey } from "../../api/secrets.ts";

const root = new URL("../../", import.meta.url).pathname;

/** The lines of a byte stream. */
async function* lines(stream: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  let rest = "";
  const decoder = new TextDecoder();
  for await (const chunk of stream) {
    const parts = (rest + decoder.decode(chunk, { stream: true })).split("\n");
    rest = parts.pop()!;
    yield* parts;
  }
  if (rest) yield rest;
}

function env(dir: string): Record<string, string> {
  return {
    DATA_DIR: dir,
    PORT: "0",
    HOST: "127.0.0.1",
    ADMIN_PASSWORD: "admin-test-password",
    SECRET_KEY: generateSecretKey(),
    DATABASE_URL: "",
    JOBS_TICK_SECONDS: "3600",
  };
}

const command = (script: string, dir: string, ...args: string[]) =>
  new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", script, ...args],
    cwd: root,
    env: env(dir),
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  });

/** Starts `deno task start`'s entry point and waits for "Serving on". */
async function startServerProcess(dir: string) {
  const child = command("api/main.ts", dir).spawn();
  const errors: string[] = [];
  const stderr = (async () => {
    for await (const line of lines(child.stderr)) {
      errors.push(line);
    }
  })();
  const reader = lines(child.stdout);
  const deadline = setTimeout(() => child.kill("SIGKILL"), 60_000);
  let url = "";
  for (;;) {
    const { value, done } = await reader.next();
    if (done) throw new Error(`server exited before serving: ${errors.join("\n")}`);
    if (value.includes("Serving on")) {
      url = /https?:\/\/[^\s"/]+/.exec(value)?.[0] ?? "";
      break;
    }
  }
  clearTimeout(deadline);
  (async () => {
    while (!(await reader.next()).done) { /* drain */ }
  })();
  return {
    child,
    errors,
    url,
    async stop(signal: Deno.Signal = "SIGTERM") {
      child.kill(signal);
      await child.status;
      await stderr;
    },
  };
}

/** Runs a process that must fail at once because the directory is held; returns its stderr. */
async function refused(script: string, dir: string, ...args: string[]): Promise<string> {
  const started = Date.now();
  const out = await command(script, dir, ...args).output();
  const stderr = new TextDecoder().decode(out.stderr).trim();
  assert.equal(out.code, 1, stderr);
  assert.ok(Date.now() - started < 30_000, "fails at once, without waiting");
  return stderr;
}

Deno.test({
  name: "one process per embedded database directory",
  ignore: Boolean(Deno.env.get("DATABASE_URL")),
  sanitizeResources: false,
  async fn(t) {
    const dir = await Deno.makeTempDir({ prefix: "pglite-lock-" });
    try {
      let server = await startServerProcess(dir);
      const pid = server.child.pid;
      const lock = JSON.parse(await Deno.readTextFile(`${dir}/pglite/owner.lock`));
      assert.equal(lock.pid, pid);
      assert.equal(lock.command, "deno task start");

      await t.step("a second server is refused with one line naming the holder", async () => {
        const stderr = await refused("api/main.ts", dir);
        assert.equal(stderr.split("\n").length, 1, stderr);
        assert.match(stderr, new RegExp(`in use by process ${pid} \\(deno task start`));
        assert.match(stderr, /Stop it first/);
      });

      await t.step("a worker is refused", async () => {
        const stderr = await refused("api/worker.ts", dir);
        assert.match(stderr, new RegExp(`in use by process ${pid}`));
      });

      await t.step(
        "the CLI works while the server holds the directory: it asks the server",
        async () => {
          const configDir = await Deno.makeTempDir({ prefix: "pglite-lock-cli-" });
          const cli = async (args: string[], stdin?: string) => {
            const child = new Deno.Command(Deno.execPath(), {
              args: ["run", "-A", "cli/main.ts", "--server", server.url, ...args],
              cwd: root,
              env: { ...env(dir), XDG_CONFIG_HOME: configDir, SOURCE_MANAGER_TOKEN: "" },
              stdin: stdin === undefined ? "null" : "piped",
              stdout: "piped",
              stderr: "piped",
            }).spawn();
            if (stdin !== undefined) {
              const writer = child.stdin.getWriter();
              await writer.write(new TextEncoder().encode(stdin));
              await writer.close();
            }
            const out = await child.output();
            return {
              code: out.code,
              text: new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr),
            };
          };
          try {
            const login = await cli(
              ["login", "--username", "admin", "--password-stdin"],
              "admin-test-password",
            );
            assert.equal(login.code, 0, login.text);
            const poll = await cli(["mail", "poll"]);
            assert.equal(poll.code, 0, poll.text);
            assert.match(poll.text, /No active e-mail source to poll/);
          } finally {
            await Deno.remove(configDir, { recursive: true });
          }
        },
      );

      await t.step("a clean stop releases the lock; the next start takes it", async () => {
        await server.stop();
        await assert.rejects(Deno.stat(`${dir}/pglite/owner.lock`), Deno.errors.NotFound);
        server = await startServerProcess(dir);
      });

      await t.step("a lock left by kill -9 is taken over by the next start", async () => {
        const killedPid = server.child.pid;
        await server.stop("SIGKILL");
        const left = JSON.parse(await Deno.readTextFile(`${dir}/pglite/owner.lock`));
        assert.equal(left.pid, killedPid);
        server = await startServerProcess(dir);
        await new Promise((r) => setTimeout(r, 200));
        assert.ok(
          server.errors.some((line) => line.includes(`left by process ${killedPid}`)),
          server.errors.join("\n"),
        );
        const lock = JSON.parse(await Deno.readTextFile(`${dir}/pglite/owner.lock`));
        assert.equal(lock.pid, server.child.pid);
        await server.stop();
      });
    } finally {
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    }
  },
});
