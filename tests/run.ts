/**
 * `deno task test`: the whole suite. Builds the web app when it is out of date, starts the
 * loopback test servers (Dovecot, Postfix, OpenSSH), runs `deno test`, and stops the servers
 * whatever happened. Extra arguments go to `deno test` (e.g. a path or `--filter`).
 */
const root = new URL("../", import.meta.url).pathname;

async function run(cmd: string[], env: Record<string, string> = {}): Promise<Deno.CommandStatus> {
  const child = new Deno.Command(cmd[0], { args: cmd.slice(1), cwd: root, env }).spawn();
  return await child.status;
}

async function exists(path: string): Promise<boolean> {
  return await Deno.stat(`${root}${path}`).then(() => true, () => false);
}

const deno = Deno.execPath();
if (await exists("scripts/build_web.ts")) {
  const built = await run([deno, "run", "-A", "scripts/build_web.ts", "--if-needed"]);
  if (!built.success) Deno.exit(built.code);
}
const withServices = await exists("tests/services/up.sh");
if (withServices && !(await run(["bash", "tests/services/up.sh"])).success) Deno.exit(1);
let code = 1;
try {
  const test = () => run([deno, "test", "-A", "--parallel", ...Deno.args], { DENO_JOBS: "2" });
  let status = await test();
  // Deno itself crashing is not a verdict on the tests: once, in CI (2026-11-28), `deno test`
  // died of a segmentation fault (exit 139) half-way, every test so far passed, on code that
  // passed the whole suite before and after. A failed test exits 1 and is not run again.
  if (status.signal === "SIGSEGV") {
    console.error(
      "\n== deno test crashed with a segmentation fault (a crash of the runtime, not a failed " +
        "test); running the suite once more ==\n",
    );
    status = await test();
  }
  code = status.code;
} finally {
  if (withServices) await run(["bash", "tests/services/down.sh"]);
}
Deno.exit(code);
