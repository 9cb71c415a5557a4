-- Order submission processing (docs/order_submission.md, "Processing"): the order e-mails of a
-- source waiting for their batch, the row ledger that makes "never the same orders twice to a
-- vendor" hold, the outbox of vendor e-mails and their attachments.

-- One row per order e-mail (import run) of an order submission source: its batch day and
-- whether its batch was released, with the facts a forward needs.
create table submission_inbound (
  import_run_id bigint primary key references import_runs (id),
  order_submission_source_id integer not null references order_submission_sources (id),
  batch_day date not null,
  received_at timestamptz not null,
  -- 'waiting' for the batch, or 'released' (its rows may go out)
  status text not null default 'waiting' check (status in ('waiting', 'released')),
  release_reason text,
  released_at timestamptz,
  incoming_headers jsonb not null default '[]',
  original_subject text not null default '' check (char_length(original_subject) <= 1000),
  original_from text not null default '' check (char_length(original_from) <= 1000),
  original_to text not null default '' check (char_length(original_to) <= 4000),
  original_date text not null default '' check (char_length(original_date) <= 200),
  original_body text not null default '' check (char_length(original_body) <= 200000),
  original_file_name text not null default '' check (char_length(original_file_name) <= 1000),
  -- the order file itself (attachment or download), for forwards
  order_file_id bigint references import_files (id)
);
create index submission_inbound_waiting_idx
  on submission_inbound (order_submission_source_id, batch_day) where status = 'waiting';

-- A day's batch of a source that reached its expected count (decideBatch's completedEarlier).
create table submission_batches (
  order_submission_source_id integer not null references order_submission_sources (id),
  batch_day date not null,
  released_at timestamptz not null default now(),
  reason text not null,
  primary key (order_submission_source_id, batch_day)
);

-- The outbox: one vendor e-mail. The idempotency key and the Message-ID are unique.
create table submissions (
  id bigserial primary key,
  vendor_source_id integer not null references vendor_sources (id),
  idempotency_key text not null unique,
  batch text not null check (char_length(batch) <= 400),
  po_numbers text[] not null default '{}',
  row_count integer not null,
  send_from_email_source_id integer not null references email_sources (id),
  to_addresses text not null check (char_length(to_addresses) <= 4000),
  cc_addresses text not null default '' check (char_length(cc_addresses) <= 4000),
  bcc_addresses text not null default '' check (char_length(bcc_addresses) <= 4000),
  subject text not null check (char_length(subject) <= 4000),
  body text not null,
  message_id text not null unique check (char_length(message_id) <= 400),
  status text not null default 'pending'
    check (status in ('pending', 'sending', 'sent', 'failed', 'uncertain')),
  attempts integer not null default 0,
  last_error text,
  created_at timestamptz not null default now(),
  sending_at timestamptz,
  sent_at timestamptz
);
create index submissions_vendor_sent_idx on submissions (vendor_source_id, sent_at desc)
  where status = 'sent';

create table submission_files (
  submission_id bigint not null references submissions (id) on delete cascade,
  position integer not null,
  file_name text not null check (char_length(file_name) <= 400),
  content_type text not null check (char_length(content_type) <= 200),
  size integer not null,
  sha256 text not null,
  bytes bytea not null,
  primary key (submission_id, position)
);

-- The row ledger: every order row a vendor was (or will be) sent, once. Accumulating rows of
-- non-daily vendors and rows of a waiting batch have submission_id null.
create table submission_rows (
  id bigserial primary key,
  vendor_source_id integer not null references vendor_sources (id),
  row_fingerprint text not null,
  import_run_id bigint not null references import_runs (id),
  row_number integer not null,
  po_number text not null default '',
  cells jsonb not null,
  fields jsonb not null,
  vendor_name text not null default '',
  account_number text not null default '',
  received_at timestamptz not null,
  submission_id bigint references submissions (id),
  unique (vendor_source_id, row_fingerprint)
);
create index submission_rows_unsent_idx on submission_rows (vendor_source_id)
  where submission_id is null;
create index submission_rows_submission_idx on submission_rows (submission_id);
create index submission_rows_run_idx on submission_rows (import_run_id);
