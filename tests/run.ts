/**
 * `deno task test`: the whole suite. Builds the web app when it is out of date, starts the
 * loopback test servers (Dovecot, Postfix, OpenSSH), runs `deno test`, and stops the servers
 * whatever happened. Extra arguments go to `deno test` (e.g. a path or `--filter`).
 */
const root = new URL("../", import.meta.url).pathname;

async function run(cmd: string[], env: Record<string, string> = {}): Promise<number> {
  const child = new Deno.Command(cmd[0], { args: cmd.slice(1), cwd: root, env }).spawn();
  return (await child.status).code;
}

async function exists(path: string): Promise<boolean> {
  return await Deno.stat(`${root}${path}`).then(() => true, () => false);
}

const deno = Deno.execPath();
if (await exists("scripts/build_web.ts")) {
  const built = await run([deno, "run", "-A", "scripts/build_web.ts", "--if-needed"]);
  if (built !== 0) Deno.exit(built);
}
const withServices = await exists("tests/services/up.sh");
if (withServices && await run(["bash", "tests/services/up.sh"]) !== 0) Deno.exit(1);
let code = 1;
try {
  code = await run([deno, "test", "-A", "--parallel", ...Deno.args], { DENO_JOBS: "2" });
} finally {
  if (withServices) await run(["bash", "tests/services/down.sh"]);
}
Deno.exit(code);
