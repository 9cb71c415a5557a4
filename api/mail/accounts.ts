/**
 * Mail accounts: an e-mail source as sending and polling see it, with its secret decrypted. The
 * e-mail sources area (`api/email_sources/`) edits the rows; the mail and ingest layers read them
 * here, so they never import a feature area (docs/conventions.md, "Layers").
 */
import type { Db } from "../db/client.ts";
import { notFound } from "../db/errors.ts";
import type { SecretBox } from "../secrets.ts";

/** The mailbox all feeds read today. */
export const INBOX = "INBOX";

/** A source with its secret decrypted: what sending and polling need, never sent to a client. */
export interface MailAccount {
  id: number;
  username: string;
  email: string;
  secret: string;
  incomingServer: string;
  incomingPort: number | null;
  outgoingServer: string;
  outgoingPort: number | null;
  ssl: boolean;
  isMsal: boolean;
  msalClientId: string;
  msalTenantId: string;
  activeStatus: boolean;
}

/** A source with its secret decrypted, for sending and polling; `NotFoundError` if unknown or deleted. */
export async function loadMailAccount(
  db: Db,
  secrets: SecretBox,
  id: number,
): Promise<MailAccount> {
  const [row] = await db.query<Omit<MailAccount, "secret"> & { passwordEnc: string }>(
    `select id, username, email, password_enc as "passwordEnc",
       incoming_server as "incomingServer", incoming_port as "incomingPort",
       outgoing_server as "outgoingServer", outgoing_port as "outgoingPort", ssl,
       is_msal as "isMsal", msal_client_id as "msalClientId", msal_tenant_id as "msalTenantId",
       active_status as "activeStatus"
     from email_sources where id = $1 and deleted_at is null`,
    [id],
  );
  if (!row) throw notFound(`Email source ${id}`);
  const { passwordEnc, ...account } = row;
  return { ...account, secret: passwordEnc ? await secrets.decrypt(passwordEnc) : "" };
}

/** Ids of the sources the poll job reads: active, not deleted, with an incoming server or MSAL. */
export async function pollableSourceIds(db: Db): Promise<number[]> {
  const rows = await db.query<{ id: number }>(
    `select id from email_sources
      where deleted_at is null and active_status and (incoming_server <> '' or is_msal)
      order by id`,
  );
  return rows.map((r) => r.id);
}

/**
 * The pollable sources with a digest of everything a mailbox session depends on (server, port,
 * SSL, login, Microsoft ids, the stored secret): a listener restarts when its digest changes.
 */
export async function pollableSourceDigests(db: Db): Promise<{ id: number; digest: string }[]> {
  return await db.query<{ id: number; digest: string }>(
    `select id, md5(concat_ws('|', incoming_server, incoming_port, ssl, username, email,
              is_msal, msal_client_id, msal_tenant_id, password_enc)) as digest
       from email_sources
      where deleted_at is null and active_status and (incoming_server <> '' or is_msal)
      order by id`,
  );
}
