/**
 * A stored mailbox secret never reaches a server other than the one it was entered for
 * (issue 10, finding 1): a listener of the "attacker" on loopback records every byte it gets while
 * a least-privileged user edits the source and presses "Check now" and "Send test e-mail".
 */
import assert from "node:assert/strict";
import { ADMIN_PASSWORD, startTestServer } from "../support/server.ts";
import { testClient } from "../support/http.ts";

const SECRET = "stored-Secret-9Zk";

/** A TCP listener on 127.0.0.1 that greets like IMAP and SMTP and keeps what it receives. */
function attackerListener() {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const received: string[] = [];
  let connections = 0;
  const done = (async () => {
    for await (const conn of listener) {
      connections++;
      (async () => {
        try {
          await conn.write(new TextEncoder().encode("* OK IMAP ready\r\n"));
          const buffer = new Uint8Array(4096);
          for (;;) {
            const n = await conn.read(buffer);
            if (n === null) break;
            const text = new TextDecoder().decode(buffer.subarray(0, n));
            received.push(text);
            const tag = text.split(" ")[0];
            await conn.write(new TextEncoder().encode(`${tag} OK done\r\n`));
          }
        } catch { /* the client went away */ }
        try {
          conn.close();
        } catch { /* closed */ }
      })();
    }
  })();
  return {
    port: (listener.addr as Deno.NetAddr).port,
    get connections() {
      return connections;
    },
    text: () => received.join(""),
    async close() {
      listener.close();
      await done.catch(() => {});
    },
  };
}

Deno.test("a stored secret never follows a changed endpoint", async (t) => {
  const server = await startTestServer();
  const attacker = attackerListener();
  try {
    const admin = testClient(server.url);
    await admin.login("admin", ADMIN_PASSWORD);
    // The admin's source points at a closed port (9, nothing listens there).
    const saved = await admin.post("/api/email-sources/email/save", {
      id: 0,
      username: "orders@example.test",
      email: "orders@example.test",
      password: SECRET,
      incomingServer: "127.0.0.1",
      incomingPort: 9,
      outgoingServer: "127.0.0.1",
      outgoingPort: 9,
      ssl: false,
      isMsal: false,
      msalClientId: "",
      msalTennentId: "",
    });
    assert.equal(saved.status, 200);
    const source = saved.body as Record<string, unknown>;
    const id = source.id as number;
    await server.createUser({ username: "mallory", password: "mallory-pass-1", orderUser: true });
    const mallory = testClient(server.url);
    await mallory.login("mallory", "mallory-pass-1");

    await t.step(
      "pointing the source at another server while keeping the secret is refused",
      async () => {
        for (
          const change of [
            { incomingPort: attacker.port },
            { outgoingPort: attacker.port },
            { incomingServer: "localhost", incomingPort: attacker.port },
          ]
        ) {
          const response = await mallory.post("/api/email-sources/email/save", {
            ...source,
            password: "********",
            ...change,
          });
          assert.equal(response.status, 400);
          assert.match((response.body as { message: string }).message, /Enter the password again/);
        }
        const stored = (await mallory.get(`/api/email-sources/email/${id}`)).body as {
          incomingPort: number;
          outgoingPort: number;
        };
        assert.equal(stored.incomingPort, 9);
        assert.equal(stored.outgoingPort, 9);
      },
    );

    await t.step("Check now and a test send go to the stored servers only", async () => {
      const poll = await mallory.post(`/api/email-sources/poll/${id}`);
      assert.equal(poll.status, 200);
      // The dialog's source carries the attacker's server: the server ignores all but its id.
      const send = await mallory.post("/api/email-sources/send-test-email", {
        toEmail: "someone@example.test",
        subjectLine: "s",
        messageContent: "m",
        emailSource: {
          ...source,
          password: "********",
          incomingPort: attacker.port,
          outgoingPort: attacker.port,
        },
      });
      assert.equal(send.status, 502);
      assert.ok(!JSON.stringify(send.body).includes(SECRET));
    });

    await t.step("the listener never saw a connection, let alone the secret", () => {
      assert.equal(attacker.connections, 0);
      assert.ok(!attacker.text().includes(SECRET));
    });

    await t.step("entering a password with the change is allowed: that one is sent", async () => {
      const response = await mallory.post("/api/email-sources/email/save", {
        ...source,
        password: "mallory-own-password",
        incomingPort: attacker.port,
      });
      assert.equal(response.status, 200);
      await mallory.post(`/api/email-sources/poll/${id}`);
      assert.ok(attacker.connections > 0);
      assert.ok(!attacker.text().includes(SECRET));
    });
  } finally {
    await attacker.close();
    await server.close();
  }
});
