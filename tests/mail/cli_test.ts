/** `cli mail poll` against the loopback Dovecot (tests/services/up.sh), on its own database. */
import { TEST_OUTBOUND_ALLOW } from "../support/server.ts";
import assert from "node:assert/strict";
import { loadConfig } from "../../api/config.ts";
import { openDeps } from "../../api/server.ts";
import { saveEmailSource } from "../../api/email_sources/queries.ts";
import { emailSourceSave } from "../../shared/contract/email_sources.ts";
import { generateSecretKey } from "../../api/secrets.ts";
import { addMailUser, appendMessage, readServices } from "../services/services.ts";
import { sourceFor, uniqueName } from "./support.ts";
import { rawMessage } from "./messages.ts";

const root = new URL("../../", import.meta.url).pathname;

async function cli(env: Record<string, string>, ...args: string[]) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", `${root}cli/main.ts`, ...args],
    cwd: root,
    env,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  return { code: out.code, stdout: text(out.stdout), stderr: text(out.stderr) };
}

Deno.test({
  name: "cli mail poll reads the mailbox now and says what it did",
  // PGlite: one process per data directory, so the CLI gets its own; PostgreSQL: the same.
  ignore: Boolean(Deno.env.get("DATABASE_URL")),
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "cli-mail-" });
    const env = {
      DATA_DIR: dir,
      SECRET_KEY: generateSecretKey(),
      ADMIN_PASSWORD: "admin-test-password",
      MAIL_CA_FILE: readServices().caPath,
      OUTBOUND_ALLOW: TEST_OUTBOUND_ALLOW,
    };
    try {
      const user = await addMailUser(uniqueName("cli"));
      const deps = await openDeps(loadConfig(env), () => {});
      const id = await saveEmailSource(
        deps.db,
        deps.secrets,
        emailSourceSave.parse(sourceFor(user)),
      );
      await deps.db.close();
      for (const subject of ["one", "two"]) {
        await appendMessage(
          user,
          rawMessage({ from: "x@example.test", to: user.address, subject }),
        );
      }
      const first = await cli(env, "mail", "poll", "--json");
      assert.equal(first.code, 0, first.stderr);
      const [result] = JSON.parse(first.stdout);
      assert.deepEqual(
        [result.emailSourceId, result.polled, result.seen, result.ignored, result.error],
        [id, true, 2, 2, null],
      );
      const second = await cli(env, "mail", "poll", String(id));
      assert.equal(second.code, 0, second.stderr);
      assert.equal(
        second.stdout.trim(),
        `E-mail source ${id}: 0 new message(s), 0 matched, 0 ignored, 0 unreadable; 0 import run(s).`,
      );
      const unknown = await cli(env, "mail", "poll", "999");
      assert.equal(unknown.code, 1);
      assert.equal(unknown.stdout.trim(), "E-mail source 999: failed: Email source 999 not found.");
      const bad = await cli(env, "mail", "poll", "abc");
      assert.equal(bad.code, 1);
      assert.match(bad.stderr, /positive whole number/);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
