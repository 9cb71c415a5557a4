-- The dashboard (docs/dashboard.md): indexes that keep its call one probe per source, and the
-- last known state of each source for the incidents job (one alert per incident, one
-- "recovered" message when it ends).

-- A vendor's last e-mail, whatever its status (submissions_vendor_sent_idx has sent ones only).
create index submissions_vendor_created_idx on submissions (vendor_source_id, created_at desc);
-- A mailbox's last matched message.
create index mail_messages_source_claimed_idx on mail_messages (email_source_id, claimed_at desc)
  where status = 'matched';

create table source_states (
  area text not null check (char_length(area) <= 40),
  source_id integer not null,
  state text not null check (state in ('failing', 'held', 'stale', 'ok', 'inactive')),
  -- when the current incident started (null: no incident)
  incident_since timestamptz,
  -- the incident's alert went out (announce succeeded); false: to be sent at the next run
  alert_sent boolean not null default false,
  -- an incident ended after its alert went out: its "recovered" message is to be sent
  recovery_pending boolean not null default false,
  -- what the recovered message says (the ended incident's state and start)
  ended_state text check (char_length(ended_state) <= 40),
  ended_since timestamptz,
  updated_at timestamptz not null default now(),
  primary key (area, source_id)
);
