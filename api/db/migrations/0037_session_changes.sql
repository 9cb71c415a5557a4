-- A web process remembers the user behind each access token (api/auth/session_cache.ts) instead of
-- asking the database on every request. What could change that answer is an update or a delete of
-- a user, a session or a token: logout, revocation, a password change, deactivation, a role or a
-- flag, an expiry moved. These triggers count every such statement in `session_changes`, in the
-- statement's own transaction, so the count moves exactly when the change becomes visible; a
-- process that reads a new count forgets what it remembered. Inserts change no answer (a new user
-- has no session; a new session or token was never remembered).
create table session_changes (
  only_row boolean primary key default true check (only_row),
  version bigint not null default 0
);
insert into session_changes default values;

create function count_session_change() returns trigger language plpgsql as $$
begin
  update session_changes set version = version + 1;
  return null;
end $$;

create trigger users_count_session_change after update or delete on users
  for each statement execute function count_session_change();
create trigger sessions_count_session_change after update or delete on sessions
  for each statement execute function count_session_change();
create trigger session_tokens_count_session_change after update or delete on session_tokens
  for each statement execute function count_session_change();
