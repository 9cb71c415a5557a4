-- Files processed within seconds of arrival (issue 25; docs/mail_ingestion.md "Listening (IMAP
-- IDLE)", docs/inventory.md "SFTP inbox").

-- One IDLE listener per mailbox across all processes: the row is its lease (renewed while the
-- listener lives, taken over once `lease_until` has passed) and what the source page shows.
-- `mode`: connecting, idle (listening), no-idle (the server lacks IDLE: polling only), down
-- (disconnected, reconnecting with back-off).
create table mailbox_listeners (
  email_source_id integer primary key references email_sources (id),
  owner text not null check (char_length(owner) <= 200),
  lease_until timestamptz not null,
  mode text not null default 'connecting'
    check (mode in ('connecting', 'idle', 'no-idle', 'down')),
  mode_since timestamptz not null default now(),
  last_error text check (char_length(last_error) <= 2000)
);

-- A per-source interval for looking at the SFTP inbox folder; null = INVENTORY_SFTP_POLL_SECONDS.
alter table inventory_sources add column sftp_poll_seconds integer
  check (sftp_poll_seconds between 5 and 86400);

-- When the inbox folder was last looked at, and how that went (shown on the source page).
create table inventory_sftp_checks (
  inventory_source_id integer primary key references inventory_sources (id),
  checked_at timestamptz not null,
  error text check (char_length(error) <= 2000)
);
