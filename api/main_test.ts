import assert from "node:assert/strict";

Deno.test("a wrong setting stops the start with one line naming the variable", async () => {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", new URL("./main.ts", import.meta.url).pathname],
    env: { PORT: "not-a-port", DATA_DIR: "memory://" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(output.code, 1);
  const stderr = new TextDecoder().decode(output.stderr).trim();
  assert.match(stderr, /^Invalid PORT: /);
  assert.equal(stderr.split("\n").length, 1);
});
