/**
 * `cli mail poll` against a running server and the loopback Dovecot (tests/services/up.sh): the
 * CLI asks the server (POST /api/email-sources/poll/{id}) instead of opening the database, so it
 * works while the server holds the embedded database (issue 15).
 */
import assert from "node:assert/strict";
import { appendMessage } from "../services/services.ts";
import { mailFixture } from "./support.ts";
import { rawMessage } from "./messages.ts";
import { testCli } from "../cli/support.ts";

Deno.test("cli mail poll reads the mailbox now through the server and says what it did", async () => {
  const { server, admin, user, emailSourceId: id } = await mailFixture();
  const cli = await testCli(server.url);
  try {
    const created = await admin.post("/api/accounts/tokens", { name: "mail test" });
    const env = { SOURCE_MANAGER_TOKEN: (created.body as { token: string }).token };
    for (const subject of ["one", "two"]) {
      await appendMessage(
        user,
        rawMessage({ from: "x@example.test", to: user.address, subject }),
      );
    }
    const first = await cli.run(["mail", "poll", "--json"], { env });
    assert.equal(first.code, 0, first.stdout + first.stderr);
    const [result] = JSON.parse(first.stdout);
    assert.deepEqual(
      [result.emailSourceId, result.polled, result.seen, result.error],
      [id, true, 2, null],
    );
    assert.equal(result.matched + result.ignored, 2);
    // The server saw the poll: its own state says so.
    const source = (await admin.get(`/api/email-sources/email/${id}`)).body as {
      lastSuccessfulPoll: string | null;
    };
    assert.ok(source.lastSuccessfulPoll);
    const second = await cli.run(["mail", "poll", String(id)], { env });
    assert.equal(second.code, 0, second.stderr);
    assert.equal(
      second.stdout.trim(),
      `E-mail source ${id}: 0 new message(s), 0 matched, 0 ignored, 0 unreadable; 0 import run(s).`,
    );
    const unknown = await cli.run(["mail", "poll", "999"], { env });
    assert.equal(unknown.code, 1);
    assert.equal(unknown.stdout.trim(), "E-mail source 999: failed: Email source 999 not found.");
    const bad = await cli.run(["mail", "poll", "abc"], { env });
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /positive whole number/);
    const noToken = await cli.run(["mail", "poll"]);
    assert.equal(noToken.code, 4);
  } finally {
    await cli.close();
    await server.close();
  }
});
