-- The activity log (docs/activity.md): who created, changed or deleted which record, who
-- released, re-ran or manually processed which run, and every sign-in, kept for
-- ACTIVITY_RETENTION_DAYS. Rows are written by one middleware (api/activity/middleware.ts).

create table activity (
  id bigserial primary key,
  at timestamptz not null default now(),
  -- null for a failed sign-in (no user) and once the user is deleted; username stays
  user_id integer references users (id) on delete set null,
  -- the user's name at the time; for a failed sign-in, the name that was tried
  username text not null default '' check (char_length(username) <= 200),
  action text not null check (char_length(action) <= 50),
  entity_type text not null check (char_length(entity_type) <= 50),
  entity_id bigint,
  entity_name text not null default '' check (char_length(entity_name) <= 200),
  -- the client's address (api/http/client.ts), for sign-ins and changes alike
  address text not null default '' check (char_length(address) <= 64),
  -- [{ field, label, before?, after?, hidden? }]: never a secret's value or a file's contents
  changes jsonb not null default '[]'
);
-- The list: newest first, with the filters (user, entity) narrowing it.
create index activity_at_idx on activity (at desc, id desc);
create index activity_user_idx on activity (lower(username), at desc);
create index activity_entity_idx on activity (entity_type, entity_id, at desc);
create index activity_action_idx on activity (action, at desc);
