-- E-mail sources, mailbox bookkeeping, stored files, import runs and the durable job table.
-- See docs/mail_ingestion.md and docs/jobs.md.

create table email_sources (
  id serial primary key,
  username text not null,
  email text not null,
  -- AES-256-GCM under the server key, 'v1.<keyId>.<base64>'; '' when no secret is stored.
  password_enc text not null default '',
  incoming_server text not null default '',
  incoming_port integer check (incoming_port between 1 and 65535),
  outgoing_server text not null default '',
  outgoing_port integer check (outgoing_port between 1 and 65535),
  ssl boolean not null default true,
  is_msal boolean not null default false,
  msal_client_id text not null default '',
  msal_tenant_id text not null default '',
  active_status boolean not null default true,
  -- Soft delete: feeds' sources, mail_messages and import runs keep pointing at the row.
  deleted_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

-- One row per mailbox a source reads (INBOX today). The lease keeps two processes from polling
-- the same mailbox at once; claims in mail_messages make a second poll harmless anyway.
create table mailbox_state (
  email_source_id integer not null references email_sources (id),
  mailbox text not null,
  uidvalidity bigint,
  -- Highest UID claimed under `uidvalidity`; the next poll fetches the UIDs above it.
  highest_uid bigint not null default 0,
  last_poll_at timestamptz,
  last_success_at timestamptz,
  last_error text,
  last_error_at timestamptz,
  lease_owner text,
  lease_until timestamptz,
  primary key (email_source_id, mailbox)
);

-- Every message a poll has looked at, claimed once. `message_key` is the Message-ID (or a hash of
-- the header block when there is none): after a UIDVALIDITY change the same message comes back
-- with a new UID and is recognised by it.
create table mail_messages (
  id bigserial primary key,
  email_source_id integer not null references email_sources (id),
  mailbox text not null,
  uidvalidity bigint not null,
  uid bigint not null,
  message_key text not null,
  from_address text not null default '',
  subject text not null default '',
  sent_at timestamptz,
  -- matched: at least one feed source took it; ignored: none did; failed: it could not be read.
  status text not null check (status in ('matched', 'ignored', 'failed')),
  error text,
  -- When the message was marked seen on the server (matched messages only; null = still to do).
  marked_at timestamptz,
  claimed_at timestamptz not null default now(),
  constraint mail_messages_uid_key unique (email_source_id, mailbox, uidvalidity, uid)
);
create unique index mail_messages_message_key on mail_messages (email_source_id, mailbox, message_key);
create index mail_messages_unmarked_idx on mail_messages (email_source_id, mailbox)
  where status = 'matched' and marked_at is null;

-- File bytes, stored once per content.
create table import_files (
  id bigserial primary key,
  sha256 text not null unique,
  size integer not null,
  bytes bytea not null,
  created_at timestamptz not null default now()
);

-- One row per processed file, whatever delivered it.
create table import_runs (
  id bigserial primary key,
  feed text not null,
  source_id integer not null,
  trigger text not null check (trigger in ('mail', 'sftp', 'upload', 'cli', 'rerun')),
  status text not null default 'queued'
    check (status in ('queued', 'succeeded', 'failed', 'held')),
  file_id bigint references import_files (id),
  file_name text not null default '',
  received_at timestamptz not null default now(),
  mail_message_id bigint references mail_messages (id),
  rerun_of bigint references import_runs (id),
  started_by integer references users (id),
  counts jsonb not null default '{}',
  row_errors jsonb not null default '[]',
  log jsonb not null default '[]',
  warnings jsonb not null default '[]',
  error text,
  attempts integer not null default 0,
  created_at timestamptz not null default now(),
  finished_at timestamptz
);
create index import_runs_source_idx on import_runs (feed, source_id, created_at desc);
create unique index import_runs_mail_once on import_runs (mail_message_id, feed, source_id)
  where mail_message_id is not null;

-- The durable job table (DESIGN.md section 7).
create table jobs (
  id bigserial primary key,
  kind text not null,
  payload jsonb not null default '{}',
  -- At most one queued or running job per key (a mailbox poll, an import run).
  dedupe_key text,
  status text not null default 'queued'
    check (status in ('queued', 'running', 'succeeded', 'failed')),
  run_at timestamptz not null default now(),
  attempts integer not null default 0,
  max_attempts integer not null default 5,
  locked_by text,
  locked_until timestamptz,
  last_error text,
  created_at timestamptz not null default now(),
  started_at timestamptz,
  finished_at timestamptz
);
create index jobs_due_idx on jobs (run_at, id) where status in ('queued', 'running');
create unique index jobs_dedupe_key on jobs (dedupe_key) where status in ('queued', 'running');

-- Recurring work: each tick enqueues the schedules that are due, once, however many ticks were
-- missed while no process ran (those are counted in missed_runs).
create table job_schedules (
  name text primary key,
  kind text not null,
  payload jsonb not null default '{}',
  every_seconds integer not null check (every_seconds > 0),
  next_run_at timestamptz not null,
  last_enqueued_at timestamptz,
  missed_runs integer not null default 0
);
