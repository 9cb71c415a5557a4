/**
 * The outbound policy over HTTP (docs/outbound.md): without OUTBOUND_ALLOW a source pointing at
 * loopback is never connected to, and the answer does not tell a closed port from an open one.
 */
import assert from "node:assert/strict";
import { ADMIN_PASSWORD, startTestServer } from "../support/server.ts";
import { testClient } from "../support/http.ts";

Deno.test("a source on a loopback address is refused unless OUTBOUND_ALLOW admits it", async () => {
  // An open port that would greet, and a closed one: both must read the same.
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  let connections = 0;
  const accepting = (async () => {
    for await (const conn of listener) {
      connections++;
      await conn.write(new TextEncoder().encode("* OK IMAP ready\r\n220 ready\r\n")).catch(
        () => {},
      );
      conn.close();
    }
  })();
  const openPort = (listener.addr as Deno.NetAddr).port;
  const server = await startTestServer({ env: { OUTBOUND_ALLOW: "mail.corp.example" } });
  try {
    const admin = testClient(server.url);
    await admin.login("admin", ADMIN_PASSWORD);
    const messages: string[] = [];
    for (
      const [host, port] of [["127.0.0.1", openPort], ["127.0.0.1", 9], [
        "::ffff:127.0.0.1",
        openPort,
      ]] as const
    ) {
      const saved = await admin.post("/api/email-sources/email/save", {
        id: 0,
        username: `u${port}@example.test`,
        email: `u${port}@example.test`,
        password: "secret-pass",
        incomingServer: host,
        incomingPort: port,
        outgoingServer: host,
        outgoingPort: port,
        ssl: false,
        isMsal: false,
      });
      assert.equal(saved.status, 200);
      const id = (saved.body as { id: number }).id;
      const poll = await admin.post(`/api/email-sources/poll/${id}`);
      assert.equal(poll.status, 200);
      const error = (poll.body as { error: string }).error;
      assert.equal(error, `Could not connect to the incoming server ${host}:${port}.`);
      const send = await admin.post("/api/email-sources/send-test-email", {
        toEmail: "someone@example.test",
        subjectLine: "s",
        messageContent: "m",
        emailSource: { id },
      });
      assert.equal(send.status, 502);
      const message = (send.body as { message: string }).message;
      assert.equal(message, `Could not connect to the outgoing server ${host}:${port}.`);
      messages.push(error.replace(String(port), "PORT"), message.replace(String(port), "PORT"));
      assert.doesNotMatch(error + message, /ECONNREFUSED|greeting/i);
    }
    assert.equal(connections, 0, "no connection was made to the loopback listener");
  } finally {
    await server.close();
    listener.close();
    await accepting.catch(() => {});
  }
});
