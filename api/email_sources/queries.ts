/** Reads and writes of e-mail sources. Secrets are encrypted here and never leave decrypted. */
import type { z } from "zod";
import type {
  EmailSource,
  emailSourceSave,
  PickerPair,
} from "../../shared/contract/email_sources.ts";
import type { Db } from "../db/client.ts";
import { conflict, invalid, notFound } from "../db/errors.ts";
import { registeredFeeds } from "../ingest/feeds.ts";
import { requireSecretForRebind, SECRET_PLACEHOLDER, type SecretBox } from "../secrets.ts";
import { mailSecretBinding } from "../mail/endpoints.ts";
import { INBOX } from "../mail/accounts.ts";

const COLUMNS = `s.id, s.username, s.email, s.password_enc <> '' as "hasSecret",
  s.incoming_server as "incomingServer", s.outgoing_server as "outgoingServer",
  s.incoming_port as "incomingPort", s.outgoing_port as "outgoingPort", s.ssl,
  s.is_msal as "isMsal", s.msal_client_id as "msalClientId",
  s.msal_tenant_id as "msalTennentId", s.active_status as "activeStatus",
  m.last_success_at as "lastSuccessfulPoll", m.last_error as "lastPollError",
  m.last_error_at as "lastPollErrorAt", m.last_poll_at as "lastCheckAt",
  case when l.mode = 'idle' and l.lease_until > now() then 'listening'
       when l.mode = 'no-idle' then 'no-idle' else 'polling' end as "watchMode"`;

const FROM = `from email_sources s
  left join mailbox_state m on m.email_source_id = s.id and m.mailbox = '${INBOX}'
  left join mailbox_listeners l on l.email_source_id = s.id`;

type SourceRow =
  & Omit<EmailSource, "password" | "lastSuccessfulPoll" | "lastPollErrorAt" | "watch">
  & {
    hasSecret: boolean;
    lastCheckAt: Date | string | null;
    watchMode: "listening" | "polling" | "no-idle";
    lastSuccessfulPoll: Date | string | null;
    lastPollErrorAt: Date | string | null;
  };

const iso = (value: Date | string | null) => value === null ? null : new Date(value).toISOString();

function toContract(
  { hasSecret, lastCheckAt, watchMode, ...row }: SourceRow,
  pollSeconds?: number,
): EmailSource {
  return {
    ...row,
    password: hasSecret ? SECRET_PLACEHOLDER : "",
    lastSuccessfulPoll: iso(row.lastSuccessfulPoll),
    lastPollErrorAt: iso(row.lastPollErrorAt),
    ...(pollSeconds !== undefined &&
      { watch: { mode: watchMode, pollSeconds, lastCheckAt: iso(lastCheckAt) } }),
  };
}

/**
 * Every source not deleted, by username; with `pollSeconds` (MAIL_POLL_SECONDS) each tells how it
 * is watched.
 */
export async function listEmailSources(db: Db, pollSeconds?: number): Promise<EmailSource[]> {
  const rows = await db.query<SourceRow>(
    `select ${COLUMNS} ${FROM} where s.deleted_at is null order by lower(s.username), s.id`,
  );
  return rows.map((row) => toContract(row, pollSeconds));
}

/** One source, or 404 (`pollSeconds`: as for {@link listEmailSources}). */
export async function getEmailSource(
  db: Db,
  id: number,
  pollSeconds?: number,
): Promise<EmailSource> {
  const [row] = await db.query<SourceRow>(
    `select ${COLUMNS} ${FROM} where s.id = $1 and s.deleted_at is null`,
    [id],
  );
  if (!row) throw notFound(`Email source ${id}`);
  return toContract(row, pollSeconds);
}

/**
 * Creates (id 0) or updates a source and returns its id. The placeholder keeps the stored
 * secret; a new source needs a real one, and so does a change of server, security, account or
 * Microsoft registration (the secret stays bound to its endpoint). Changing the account or the incoming server forgets the
 * mailbox bookkeeping, so the next poll starts as a first contact (its Message-IDs still prevent
 * duplicates).
 */
export async function saveEmailSource(
  db: Db,
  secrets: SecretBox,
  input: z.output<typeof emailSourceSave>,
): Promise<number> {
  const keep = input.password === SECRET_PLACEHOLDER;
  if (keep && input.id === 0) {
    throw invalid("Enter the password for the new e-mail source.", {
      password: ["Required"],
    });
  }
  const secret = keep ? null : await secrets.encrypt(input.password);
  const values = [
    input.username,
    input.email,
    input.incomingServer,
    input.incomingPort,
    input.outgoingServer,
    input.outgoingPort,
    input.ssl,
    input.isMsal,
    input.msalClientId,
    input.msalTennentId,
  ];
  return await db.transaction(async (tx) => {
    if (input.id === 0) {
      const [row] = await tx.query<{ id: number }>(
        `insert into email_sources (username, email, incoming_server, incoming_port,
           outgoing_server, outgoing_port, ssl, is_msal, msal_client_id, msal_tenant_id,
           password_enc, active_status)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) returning id`,
        [...values, secret, input.activeStatus ?? true],
      );
      return row.id;
    }
    const [before] = await tx.query<Parameters<typeof mailSecretBinding>[0]>(
      `select username, incoming_server as "incomingServer", incoming_port as "incomingPort",
         outgoing_server as "outgoingServer", outgoing_port as "outgoingPort", ssl,
         is_msal as "isMsal", msal_client_id as "msalClientId",
         msal_tenant_id as "msalTenantId"
       from email_sources where id = $1 and deleted_at is null for update`,
      [input.id],
    );
    if (!before) throw notFound(`Email source ${input.id}`);
    // The stored secret goes only where it was entered for (docs/outbound.md).
    requireSecretForRebind(
      keep,
      mailSecretBinding(before),
      mailSecretBinding({ ...input, msalTenantId: input.msalTennentId }),
    );
    await tx.query(
      `update email_sources set username = $1, email = $2, incoming_server = $3,
         incoming_port = $4, outgoing_server = $5, outgoing_port = $6, ssl = $7, is_msal = $8,
         msal_client_id = $9, msal_tenant_id = $10, password_enc = coalesce($11, password_enc),
         active_status = coalesce($12, active_status), updated_at = now()
       where id = $13`,
      [...values, secret, input.activeStatus ?? null, input.id],
    );
    const sameMailbox = before.username.toLowerCase() === input.username.toLowerCase() &&
      before.incomingServer.toLowerCase() === input.incomingServer.toLowerCase();
    if (!sameMailbox) {
      await tx.query("delete from mailbox_state where email_source_id = $1", [input.id]);
    }
    return input.id;
  });
}

/**
 * Soft-deletes a source (past runs keep their reference); 404 if unknown. Refused with 409 naming
 * them while feeds' sources (active or not) still read from it: they would silently stop.
 */
export async function deleteEmailSource(db: Db, id: number): Promise<void> {
  const users: string[] = [];
  for (const feed of registeredFeeds()) users.push(...await feed.emailSourceUsers?.(db, id) ?? []);
  if (users.length) {
    throw conflict(
      `This e-mail source is still used by ${users.join(", ")}. Choose another e-mail source ` +
        "there, or delete those sources, first.",
    );
  }
  const rows = await db.query(
    `update email_sources set deleted_at = now(), active_status = false, updated_at = now()
      where id = $1 and deleted_at is null returning id`,
    [id],
  );
  if (!rows.length) throw notFound(`Email source ${id}`);
}

/**
 * Picker pairs: the username names a source. The web swaps a chosen name back for its id, so a
 * name shared by two sources gets the e-mail address (and then the id) appended.
 */
export async function emailSourcePairs(db: Db): Promise<PickerPair[]> {
  const rows = await db.query<{ id: number; username: string; email: string }>(
    `select id, username, email from email_sources where deleted_at is null
      order by lower(username), id`,
  );
  const count = (names: string[], name: string) =>
    names.filter((n) => n.toLowerCase() === name.toLowerCase()).length;
  const plain = rows.map((r) => r.username);
  const withEmail = rows.map((r) =>
    count(plain, r.username) > 1 ? `${r.username} (${r.email})` : r.username
  );
  return rows.map((r, i) => ({
    item1: count(withEmail, withEmail[i]) > 1 ? `${withEmail[i]} #${r.id}` : withEmail[i],
    item2: r.id,
  }));
}
