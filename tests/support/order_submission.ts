/**
 * Set-up for the processing tests: a server, an order mailbox, a send-from mailbox, an order
 * submission source and vendors (rows written directly: the CRUD API is another part), and
 * helpers to read a vendor's mailbox back. Needs tests/services/up.sh.
 */
import PostalMime, { type Email } from "postal-mime";
import type { Db } from "../../api/db/client.ts";
import { snakeCase } from "../../api/db/names.ts";
import { sha256Hex } from "../../shared/sha256.ts";
import { addMailUser, connectImap, type MailUser, readServices } from "../services/services.ts";
import { ADMIN_PASSWORD, startTestServer, type TestServer } from "./server.ts";
import { testClient } from "./http.ts";
import { sourceFor, uniqueName } from "../mail/support.ts";

/** A server with an order mailbox and a send-from mailbox. */
export interface SubmissionFixture {
  server: TestServer;
  db: Db;
  inbox: MailUser;
  sender: MailUser;
  inboxSourceId: number;
  senderSourceId: number;
  close(): Promise<void>;
}

/** Starts a server and saves the two e-mail sources through the API. */
export async function submissionFixture(): Promise<SubmissionFixture> {
  const info = readServices();
  const server = await startTestServer({ env: { MAIL_CA_FILE: info.caPath } });
  try {
    const admin = testClient(server.url);
    await admin.login("admin", ADMIN_PASSWORD);
    const inbox = await addMailUser(uniqueName("orders"));
    const sender = await addMailUser(uniqueName("sendfrom"));
    const save = async (user: MailUser) => {
      const saved = await admin.post("/api/email-sources/email/save", sourceFor(user));
      if (saved.status !== 200) throw new Error(`save answered ${saved.status}`);
      return (saved.body as { id: number }).id;
    };
    return {
      server,
      db: server.db,
      inbox,
      sender,
      inboxSourceId: await save(inbox),
      senderSourceId: await save(sender),
      close: () => server.close(),
    };
  } catch (error) {
    await server.close();
    throw error;
  }
}

/** Inserts an order submission source; returns its id. */
export async function insertSource(
  db: Db,
  values: Record<string, string | number | boolean>,
): Promise<number> {
  const keys = Object.keys(values);
  const [row] = await db.query<{ id: number }>(
    `insert into order_submission_sources (${keys.map(snakeCase).join(", ")})
     values (${keys.map((_, i) => `$${i + 1}`).join(", ")}) returning id`,
    Object.values(values),
  );
  return row.id;
}

/** A vendor to insert. */
export interface TestVendor {
  sourceId: number;
  name: string;
  sendFrom: number;
  to: string;
  cc?: string;
  bcc?: string;
  subject: string;
  body?: string;
  wantsPdf?: boolean;
  wantsForward?: boolean;
  nonDaily?: boolean;
  everyXDays?: number | null;
  headerRow?: number;
  aliases?: string[];
  mapping?: Record<string, string>;
  template?: { fileName: string; bytes: Uint8Array };
}

/** Inserts a vendor with aliases, mapping and template; returns its id. */
export async function insertVendor(db: Db, v: TestVendor): Promise<number> {
  const [row] = await db.query<{ id: number }>(
    `insert into vendor_sources (order_submission_source_id, vendor_name_from_file,
       send_from_email_source_id, submit_emails, submit_cc_emails, submit_bcc_emails,
       submit_email_subject_line, submit_email_body_text, vendor_wants_pdf,
       vendor_wants_forwarded_email, vendor_wants_non_daily_submission,
       vendor_custom_submit_every_x_day, submit_file_header_row_index)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) returning id`,
    [
      v.sourceId,
      v.name,
      v.sendFrom,
      v.to,
      v.cc ?? "",
      v.bcc ?? "",
      v.subject,
      v.body ?? "",
      v.wantsPdf ?? false,
      v.wantsForward ?? false,
      v.nonDaily ?? false,
      v.everyXDays ?? null,
      v.headerRow ?? 1,
    ],
  );
  for (const alias of v.aliases ?? []) {
    await db.query(
      `insert into vendor_aliases (vendor_source_id, vendor_alias_name_from_file) values ($1, $2)`,
      [row.id, alias],
    );
  }
  const mapping = v.mapping ?? {};
  const keys = Object.keys(mapping);
  await db.query(
    `insert into vendor_field_mappings (vendor_source_id${
      keys.map((k) => `, ${snakeCase(k)}`).join("")
    }) values ($1${keys.map((_, i) => `, $${i + 2}`).join("")})`,
    [row.id, ...Object.values(mapping)],
  );
  if (v.template) {
    await db.query(
      `insert into vendor_templates (vendor_source_id, file_name, data, sha256)
       values ($1, $2, $3, $4)`,
      [row.id, v.template.fileName, v.template.bytes, await sha256Hex(v.template.bytes)],
    );
  }
  return row.id;
}

/** Every message of a mailbox's INBOX, parsed, with its raw Bcc-free headers. */
export async function mailboxMessages(user: MailUser): Promise<Email[]> {
  const client = await connectImap(user);
  try {
    const box = await client.mailboxOpen("INBOX");
    if (!box.exists) return [];
    const out: Email[] = [];
    for await (const message of client.fetch("1:*", { source: true })) {
      if (message.source) out.push(await PostalMime.parse(message.source));
    }
    return out;
  } finally {
    await client.logout();
  }
}

/** Waits until a mailbox holds `count` messages, then a moment more, and returns them. */
export async function settledMessages(user: MailUser, count: number): Promise<Email[]> {
  const deadline = Date.now() + 10_000;
  let messages = await mailboxMessages(user);
  while (messages.length < count && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 200));
    messages = await mailboxMessages(user);
  }
  // Postfix delivers asynchronously: give a duplicate the time to arrive.
  await new Promise((r) => setTimeout(r, 1_000));
  return await mailboxMessages(user);
}

/** A fresh test mailbox. */
export const newMailbox = (prefix: string) => addMailUser(uniqueName(prefix));
