import assert from "node:assert/strict";
import { ConfigError, configWarnings, loadConfig } from "./config.ts";

Deno.test("defaults apply when nothing is set", () => {
  const config = loadConfig({});
  assert.equal(config.PORT, 8000);
  assert.equal(config.DATA_DIR, "./data");
  assert.equal(config.DATABASE_URL, undefined);
  assert.equal(config.MAIL_POLL_SECONDS, 300);
  assert.equal(config.MAX_SOURCE_FILE_BYTES, 50 * 1024 * 1024);
});

Deno.test("values are parsed and empty strings mean unset", () => {
  const config = loadConfig({ PORT: "8080", DATABASE_URL: "", DEBUG_TOOLS: "true" });
  assert.equal(config.PORT, 8080);
  assert.equal(config.DATABASE_URL, undefined);
  assert.equal(config.DEBUG_TOOLS, true);
});

for (
  const [name, env, expected] of [
    ["port out of range", { PORT: "70000" }, /^Invalid PORT: /],
    ["port not a number", { PORT: "eighty" }, /^Invalid PORT: /],
    ["database URL of another kind", { DATABASE_URL: "mysql://x" }, /^Invalid DATABASE_URL: /],
    ["short secret key", { SECRET_KEY: "abc" }, /^Invalid SECRET_KEY: .*32 bytes/],
    ["bad sender address", { SMTP_FROM: "not-an-address" }, /^Invalid SMTP_FROM: /],
    ["unknown SMTP security", { SMTP_SECURITY: "ssl3" }, /^Invalid SMTP_SECURITY: /],
    ["poll interval too short", { MAIL_POLL_SECONDS: "1" }, /^Invalid MAIL_POLL_SECONDS: /],
    ["bad allow-list range", { OUTBOUND_ALLOW: "10.0.0.0/33" }, /^Invalid OUTBOUND_ALLOW: .*10/],
  ] as const
) {
  Deno.test(`a wrong value stops the start with one line: ${name}`, () => {
    assert.throws(() => loadConfig(env), (error: unknown) => {
      assert.ok(error instanceof ConfigError);
      assert.match(error.message, expected);
      assert.doesNotMatch(error.message, /\n/);
      return true;
    });
  });
}

Deno.test("PUBLIC_URL must be an http(s) URL; without it a warning says what is missing", () => {
  assert.throws(
    () => loadConfig({ PUBLIC_URL: "javascript:alert(1)" }),
    /Invalid PUBLIC_URL: must be an http/,
  );
  assert.equal(
    loadConfig({ PUBLIC_URL: "https://app.example.com" }).PUBLIC_URL,
    "https://app.example.com",
  );
  assert.deepEqual(configWarnings(loadConfig({ PUBLIC_URL: "https://app.example.com" })), []);
  const [warning] = configWarnings(loadConfig({}));
  assert.match(warning, /PUBLIC_URL is not set/);
  assert.match(warning, /ask their administrator/);
});
