/** Set-up shared by the mail tests: a server, a fresh mailbox on the test Dovecot, a source. */
import type { MailUser } from "../services/services.ts";
import { addMailUser, readServices } from "../services/services.ts";
import { ADMIN_PASSWORD, startTestServer, type TestServer } from "../support/server.ts";
import { type TestClient, testClient } from "../support/http.ts";
import { setupTestFeed } from "./test_feed.ts";

/** A server with a source reading a fresh mailbox. */
export interface MailFixture {
  server: TestServer;
  admin: TestClient;
  user: MailUser;
  emailSourceId: number;
}

/** The e-mail source fields for `user` on the test Dovecot (plain IMAP, plain SMTP). */
export function sourceFor(user: MailUser, id = 0) {
  const info = readServices();
  return {
    id,
    username: user.address,
    email: user.address,
    password: user.password,
    incomingServer: info.host,
    incomingPort: info.ports.imap,
    outgoingServer: info.host,
    outgoingPort: info.ports.smtp,
    ssl: false,
    isMsal: false,
    msalClientId: "",
    msalTennentId: "",
  };
}

/** A unique mailbox name for one test. */
export const uniqueName = (prefix: string) => `${prefix}-${crypto.randomUUID().slice(0, 8)}`;

/** Starts a server (no background jobs unless asked) and saves a source for a new mailbox. */
export async function mailFixture(
  options: { env?: Record<string, string>; jobs?: boolean } = {},
): Promise<MailFixture> {
  const info = readServices();
  const server = await startTestServer({
    env: { MAIL_CA_FILE: info.caPath, ...options.env },
    jobs: options.jobs,
  });
  try {
    await setupTestFeed(server.db);
    const admin = testClient(server.url);
    await admin.login("admin", ADMIN_PASSWORD);
    const user = await addMailUser(uniqueName("ingest"));
    const saved = await admin.post("/api/email-sources/email/save", sourceFor(user));
    if (saved.status !== 200) throw new Error(`save answered ${saved.status}`);
    return { server, admin, user, emailSourceId: (saved.body as { id: number }).id };
  } catch (error) {
    await server.close();
    throw error;
  }
}

export { ADMIN_PASSWORD, testClient };
