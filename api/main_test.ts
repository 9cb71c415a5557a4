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

Deno.test("without PUBLIC_URL the start-up log warns once that mailed links are left out", async () => {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", new URL("./main.ts", import.meta.url).pathname],
    // Empty values mean unset (api/config.ts), whatever the test's own environment holds.
    env: {
      PORT: "0",
      HOST: "127.0.0.1",
      DATA_DIR: "memory://",
      DATABASE_URL: "",
      PUBLIC_URL: "",
      ADMIN_PASSWORD: "main-test-password",
      RUN_JOBS: "false",
      LOG_LEVEL: "info",
    },
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const lines: string[] = [];
  const read = async (stream: ReadableStream<Uint8Array>) => {
    const decoder = new TextDecoder();
    let rest = "";
    for await (const chunk of stream) {
      const parts = (rest + decoder.decode(chunk, { stream: true })).split("\n");
      rest = parts.pop() ?? "";
      lines.push(...parts);
    }
    if (rest) lines.push(rest);
  };
  const done = Promise.all([read(child.stdout), read(child.stderr)]);
  try {
    // Started: the "Serving on" line is written just before the warnings.
    for (let i = 0; i < 600 && !lines.some((line) => line.includes("PUBLIC_URL")); i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } finally {
    child.kill("SIGTERM");
    await child.status;
    await done;
  }
  const warnings = lines.filter((line) => line.includes("PUBLIC_URL is not set"));
  assert.equal(warnings.length, 1, lines.join("\n"));
  assert.equal(JSON.parse(warnings[0]).level, "warn");
});
