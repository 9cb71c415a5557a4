/**
 * The CLI's login, tokens and error paths against a running server (issue 15): login stores a
 * token (mode 0600), whoami, logout revokes it; a wrong or revoked token, a token without the
 * flag, a server that is down; --json stays JSON on every path.
 */
import assert from "node:assert/strict";
import { hashToken } from "../../api/auth/tokens.ts";
import { ADMIN_PASSWORD, startTestServer } from "../support/server.ts";
import { testCli } from "./support.ts";

type ErrorBody = { error: { message: string; exitCode: number; status: number | null } };

Deno.test("cli login, whoami, logout and the error paths", async (t) => {
  const server = await startTestServer();
  const cli = await testCli(server.url);
  try {
    await server.createUser({
      username: "orders",
      password: "orders-password-1",
      email: "orders@example.com",
      orderUser: true,
    });

    await t.step("login stores a hashed-on-the-server token, mode 0600; whoami", async () => {
      const login = await cli.json(["login", "--username", "admin", "--password-stdin"], {
        stdin: ADMIN_PASSWORD + "\n",
      });
      assert.equal(login.code, 0, login.stdout + login.stderr);
      assert.equal((login.body as { username: string }).username, "admin");
      assert.ok(!login.stdout.includes("smt_"), "the token is not printed");
      const path = `${cli.configDir}/source-manager/credentials.json`;
      assert.equal((await Deno.stat(path)).mode! & 0o777, 0o600);
      const stored = JSON.parse(await Deno.readTextFile(path))[server.url];
      assert.match(stored.token, /^smt_/);
      const [row] = await server.db.query<{ name: string; tokenHash: string }>(
        `select name, token_hash as "tokenHash" from access_tokens where id = $1`,
        [stored.tokenId],
      );
      assert.equal(row.tokenHash, hashToken(stored.token));
      assert.match(row.name, /^cli on /);
      // The password session used for the token was ended.
      const [open] = await server.db.query<{ n: number }>(
        "select count(*)::int as n from sessions where revoked_at is null",
      );
      assert.equal(open.n, 0);
      const who = await cli.run(["whoami"]);
      assert.equal(who.code, 0, who.stderr);
      assert.match(
        who.stdout,
        /^admin \(id \d+, Admin\) on http:\/\/127\.0\.0\.1:\d+; flags: orderUser, inventoryUser, submissionUser/,
      );
      const whoJson = await cli.json(["whoami"]);
      assert.equal((whoJson.body as { role: string }).role, "Admin");
    });

    await t.step("a wrong password: exit 4, JSON error", async () => {
      const r = await cli.json(
        ["login", "--username", "admin", "--password-stdin", "--name", "x"],
        {
          stdin: "wrong-password",
        },
      );
      assert.equal(r.code, 4);
      assert.equal((r.body as ErrorBody).error.message, "invalid username or password");
    });

    await t.step("a wrong token: exit 4 with the login hint, text and JSON", async () => {
      const env = { SOURCE_MANAGER_TOKEN: "smt_" + "x".repeat(43) };
      const text = await cli.run(["whoami"], { env });
      assert.equal(text.code, 4);
      assert.equal(text.stderr.trim(), "error: not logged in or token revoked: run `cli login`");
      const json = await cli.json(["users", "list"], { env });
      assert.equal(json.code, 4);
      assert.equal((json.body as ErrorBody).error.exitCode, 4);
      assert.equal((json.body as ErrorBody).error.status, 401);
    });

    await t.step(
      "a token of a user without the flag: exit 1 with the server's message",
      async () => {
        const other = await testCli(server.url);
        try {
          const login = await other.run(["login", "--username", "orders", "--password-stdin"], {
            stdin: "orders-password-1",
          });
          assert.equal(login.code, 0, login.stderr);
          const r = await other.run(["inventory", "list"]);
          assert.equal(r.code, 1);
          assert.equal(r.stderr.trim(), "error: You do not have permission to do this.");
          const users = await other.json(["users", "list"]);
          assert.equal(users.code, 1);
          assert.equal((users.body as ErrorBody).error.status, 403);
          // Given the flag on the server, the same token works at once.
          await server.db.query("update users set inventory_user = true where username = 'orders'");
          assert.equal((await other.run(["inventory", "list"])).code, 0);
          // Deactivated: the token stops working.
          const disable = await cli.run(["users", "disable", "orders"]);
          assert.equal(disable.code, 0, disable.stderr);
          assert.equal((await other.run(["whoami"])).code, 4);
        } finally {
          await other.close();
        }
      },
    );

    await t.step("a server that is down: one line naming the URL, exit 3", async () => {
      const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
      const port = (listener.addr as Deno.NetAddr).port;
      listener.close();
      const url = `http://127.0.0.1:${port}`;
      const r = await cli.run(["sources", "list", "email", "--server", url]);
      assert.equal(r.code, 3);
      const lines = r.stderr.trim().split("\n");
      assert.equal(lines.length, 1, r.stderr);
      assert.ok(lines[0].includes(url), lines[0]);
      const json = await cli.json(["--server", url, "runs", "list"]);
      assert.equal(json.code, 3);
      assert.ok((json.body as ErrorBody).error.message.includes(url));
    });

    await t.step("usage errors stay JSON with --json", async () => {
      const r = await cli.json(["sources", "list"]);
      assert.equal(r.code, 1);
      assert.match((r.body as ErrorBody).error.message, /missing required argument/);
      const kind = await cli.json(["sources", "list", "nonsense"]);
      assert.equal(kind.code, 1);
      assert.match((kind.body as ErrorBody).error.message, /unknown kind "nonsense"/);
    });

    await t.step("logout revokes the token and forgets it", async () => {
      const stored = JSON.parse(
        await Deno.readTextFile(`${cli.configDir}/source-manager/credentials.json`),
      )[server.url];
      const r = await cli.run(["logout"]);
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /Token revoked and forgotten/);
      const [row] = await server.db.query<{ revoked: boolean }>(
        "select revoked_at is not null as revoked from access_tokens where id = $1",
        [stored.tokenId],
      );
      assert.equal(row.revoked, true);
      const after = await cli.run(["whoami"]);
      assert.equal(after.code, 4);
      assert.match(after.stderr, /not logged in/);
      // The revoked token, given explicitly, is refused too.
      const revoked = await cli.run(["whoami", "--token", stored.token]);
      assert.equal(revoked.code, 4);
      assert.match(revoked.stderr, /token revoked: run `cli login`/);
    });
  } finally {
    await cli.close();
    await server.close();
  }
});
