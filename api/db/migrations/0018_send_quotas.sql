-- Mail and downloads the server makes for a user or a source, counted per window (issue 28,
-- finding 4; docs/limits.md, "Sending"). One row per send, so that every server process on the
-- database sees the same count: `kind` is what was sent ('test-email', 'notification-test',
-- 'link-download'), `subject` whom it is counted against (a user id, a source id).
create table send_uses (
  id bigint generated always as identity primary key,
  kind text not null,
  subject text not null,
  at timestamptz not null default now()
);
create index send_uses_kind_at_idx on send_uses (kind, at);
create index send_uses_kind_subject_at_idx on send_uses (kind, subject, at);
