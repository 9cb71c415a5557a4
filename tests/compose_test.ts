/**
 * compose.yaml (docs/operations.md, "Deploying web and workers apart"): its Deno image is the
 * Deno this project runs on, web and worker are separate services with health checks on /ready,
 * and `docker compose config` accepts it when a Docker engine answers (skipped otherwise).
 */
import assert from "node:assert/strict";

const ROOT = new URL("../", import.meta.url).pathname;
const compose = await Deno.readTextFile(`${ROOT}compose.yaml`);

Deno.test("compose.yaml pins the Deno in use and splits web from worker", () => {
  assert.match(
    compose,
    new RegExp(`image: denoland/deno:${Deno.version.deno.replace(/\./g, "\\.")}\\n`),
  );
  for (const service of ["db", "web", "worker"]) {
    assert.match(compose, new RegExp(`^  ${service}:$`, "m"), `service ${service}`);
  }
  assert.match(compose, /command: \["task", "start"\]/);
  assert.match(compose, /command: \["task", "worker"\]/);
  assert.match(compose, /RUN_JOBS: "false"/);
  assert.equal(compose.match(/\/ready'/g)?.length, 2, "both health checks ask /ready");
});

/** True when a docker CLI is installed and its engine answers. */
async function dockerAnswers(): Promise<boolean> {
  try {
    const info = await new Deno.Command("docker", {
      args: ["info", "--format", "{{.ServerVersion}}"],
      stdout: "null",
      stderr: "null",
      signal: AbortSignal.timeout(10_000),
    }).output();
    return info.success;
  } catch {
    return false;
  }
}

Deno.test({
  name: "docker compose config accepts compose.yaml",
  ignore: !(await dockerAnswers()),
  async fn() {
    const output = await new Deno.Command("docker", {
      args: ["compose", "-f", `${ROOT}compose.yaml`, "config", "--quiet"],
      cwd: ROOT,
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.equal(output.code, 0, new TextDecoder().decode(output.stderr));
  },
});
