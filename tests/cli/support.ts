/** Running the CLI as a subprocess against a test server, with its own config directory. */
const root = new URL("../../", import.meta.url).pathname;

/** What one CLI run printed and its exit code. */
export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** A CLI bound to one config directory (its stored tokens) and default environment. */
export interface TestCli {
  configDir: string;
  run(args: string[], options?: { env?: Record<string, string>; stdin?: string }): Promise<CliRun>;
  /** Runs with --json and parses stdout (it must be JSON on every path). */
  json(
    args: string[],
    options?: { env?: Record<string, string>; stdin?: string },
  ): Promise<CliRun & { body: unknown }>;
  close(): Promise<void>;
}

/** A CLI whose default server is `url` (SOURCE_MANAGER_URL) and whose config lives in a temp dir. */
export async function testCli(url: string): Promise<TestCli> {
  const configDir = await Deno.makeTempDir({ prefix: "cli-config-" });
  const cli: TestCli = {
    configDir,
    async run(args, options = {}) {
      const child = new Deno.Command(Deno.execPath(), {
        args: ["run", "-A", `${root}cli/main.ts`, ...args],
        cwd: root,
        env: {
          XDG_CONFIG_HOME: configDir,
          SOURCE_MANAGER_URL: url,
          SOURCE_MANAGER_TOKEN: "",
          NO_COLOR: "1",
          ...options.env,
        },
        stdin: options.stdin === undefined ? "null" : "piped",
        stdout: "piped",
        stderr: "piped",
      }).spawn();
      if (options.stdin !== undefined) {
        const writer = child.stdin.getWriter();
        await writer.write(new TextEncoder().encode(options.stdin));
        await writer.close();
      }
      const out = await child.output();
      const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
      return { code: out.code, stdout: text(out.stdout), stderr: text(out.stderr) };
    },
    async json(args, options) {
      const run = await cli.run([...args, "--json"], options);
      let body: unknown;
      try {
        body = JSON.parse(run.stdout);
      } catch {
        throw new Error(`not JSON (exit ${run.code}): ${run.stdout}\n${run.stderr}`);
      }
      return { ...run, body };
    },
    async close() {
      await Deno.remove(configDir, { recursive: true });
    },
  };
  return cli;
}
