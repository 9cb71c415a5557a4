-- URL feeds (issue 25; docs/url_feeds.md): a source of a feed (inventory, order tracking) pulls
-- its file from an HTTPS URL on a schedule. One row per (feed, source); the validators' state
-- (ETag, Last-Modified) and the sha256 of the last file taken live on the row, updated in the
-- same transaction that records the import run, so a file is taken once.
create table url_feeds (
  feed text not null check (char_length(feed) <= 100),
  source_id integer not null check (source_id > 0),
  url text not null check (char_length(url) between 1 and 2000),
  -- Exactly one of an interval and a cron expression (UTC) says when to fetch.
  every_seconds integer check (every_seconds between 60 and 604800),
  cron text check (char_length(cron) <= 100),
  auth_kind text not null default 'none' check (auth_kind in ('none', 'basic', 'header')),
  username text not null default '' check (char_length(username) <= 200),
  header_name text not null default '' check (char_length(header_name) <= 200),
  -- The password (basic) or the header's value (header), encrypted (api/secrets.ts).
  secret_enc text check (char_length(secret_enc) <= 4000),
  etag text check (char_length(etag) <= 1000),
  last_modified text check (char_length(last_modified) <= 200),
  content_sha256 text check (char_length(content_sha256) = 64),
  -- The last look: when, what it found (fetched, not-modified, unchanged, failed) and why it failed.
  checked_at timestamptz,
  check_outcome text check (check_outcome in ('fetched', 'not-modified', 'unchanged', 'failed')),
  check_error text check (char_length(check_error) <= 2000),
  last_run_id integer references import_runs (id) on delete set null,
  updated_at timestamptz not null default now(),
  primary key (feed, source_id),
  check ((every_seconds is null) <> (cron is null))
);

alter table import_runs drop constraint import_runs_trigger_check;
alter table import_runs add constraint import_runs_trigger_check
  check (trigger in ('mail', 'sftp', 'upload', 'cli', 'rerun', 'url'));
