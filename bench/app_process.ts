/**
 * The application's processes as a deployment runs them: `api/main.ts` (web) and
 * `api/worker.ts`, each a `deno run` of its own with the app's V8 flags, so a test can kill one
 * with SIGKILL as an orchestrator or the kernel would.
 */
const root = new URL("../", import.meta.url).pathname;

/** A started process. */
export interface AppProcess {
  kind: "web" | "worker";
  pid: number;
  /** The web process's base URL. */
  url?: string;
  alive: boolean;
  /** SIGKILL, no clean-up. */
  kill(): void;
  /** SIGTERM and wait (a killed process is only awaited). */
  stop(): Promise<void>;
}

/** The environment without the variables that choose the database. */
function withoutDatabase(env: Record<string, string>): Record<string, string> {
  const { DATABASE_URL: _url, DATA_DIR: _dir, ...rest } = env;
  return rest;
}

/** A loopback port nobody listens on now. */
export function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return port;
}

/**
 * Starts a web process (ready when `/ready` answers) or a worker (ready when its health port
 * answers).
 *
 * @example
 * const web = await startProcess("web", { DATABASE_URL: url, RUN_JOBS: "false" });
 * await fetch(`${web.url}/health`);
 * await web.stop();
 */
export async function startProcess(
  kind: "web" | "worker",
  env: Record<string, string>,
): Promise<AppProcess> {
  const port = freePort();
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      // BENCH_APP_DENO_ARGS adds arguments for a diagnosis (e.g. `--inspect=127.0.0.1:9229`).
      ...(Deno.env.get("BENCH_APP_DENO_ARGS") ?? "").split(" ").filter(Boolean),
      // BENCH_APP_V8_FLAGS adds flags for a diagnosis (e.g. `--trace-gc` to see the pauses).
      `--v8-flags=${
        ["--max-semi-space-size=8", Deno.env.get("BENCH_APP_V8_FLAGS") ?? ""]
          .filter(Boolean).join(",")
      }`,
      kind === "web" ? "api/main.ts" : "api/worker.ts",
    ],
    cwd: root,
    // The caller's database only: a DATABASE_URL of the bench's own environment (set to reach
    // PostgreSQL) would win over a DATA_DIR and run the "embedded" process on PostgreSQL.
    clearEnv: true,
    env: {
      ...withoutDatabase(Deno.env.toObject()),
      ...env,
      ...(kind === "web" ? { PORT: String(port) } : { WORKER_HEALTH_PORT: String(port) }),
    },
    stdout: "inherit",
    stderr: "inherit",
  }).spawn();
  const process: AppProcess = {
    kind,
    pid: child.pid,
    url: kind === "web" ? `http://127.0.0.1:${port}` : undefined,
    alive: true,
    kill() {
      if (!process.alive) return;
      process.alive = false;
      child.kill("SIGKILL");
    },
    async stop() {
      if (process.alive) {
        process.alive = false;
        child.kill("SIGTERM");
      }
      await child.status;
    },
  };
  child.status.then(() => process.alive = false);
  const deadline = Date.now() + 60_000;
  const probe = `http://127.0.0.1:${port}/${kind === "web" ? "ready" : "health"}`;
  while (true) {
    try {
      const response = await fetch(probe);
      await response.body?.cancel();
      if (response.ok) return process;
    } catch { /* not listening yet */ }
    if (!process.alive || Date.now() > deadline) {
      await process.stop();
      throw new Error(`the ${kind} process did not become ready`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * CPU seconds used so far and resident memory (now and peak) of a process, from /proc.
 *
 * @example
 * const { rssMB } = processUsage(Deno.pid);
 */
export function processUsage(pid: number): { cpuS: number; rssMB: number; peakMB: number } {
  const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const ticks = Number(fields[11]) + Number(fields[12]); // utime + stime
  const status = Deno.readTextFileSync(`/proc/${pid}/status`);
  const kb = (key: string) => Number(status.match(new RegExp(`${key}:\\s+(\\d+)`))?.[1] ?? 0);
  return { cpuS: ticks / 100, rssMB: kb("VmRSS") / 1024, peakMB: kb("VmHWM") / 1024 };
}
