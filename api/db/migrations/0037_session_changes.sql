-- A web process remembers the user behind each access token (api/auth/session_cache.ts) instead of
-- asking the database on every request. Its answer (api/auth/sessions.ts, `userForAccessToken`)
-- reads a token's hash, session, kind and expiry, the session's user, expiry and revocation, and the
-- user's name, role, flags and active status. These triggers count every statement that may change
-- one of those in `session_changes`, in the statement's own transaction, so the count moves exactly
-- when the change becomes visible; a process that reads a new count forgets what it remembered.
-- What changes no answer is not counted, so remembered users outlive the frequent writes: a login
-- (`last_login`), a refresh (its token's `used_at`, and the delete of its session's expired access
-- tokens), inserts (a new user has no session; a new session or token was never remembered).
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

create trigger users_count_session_change
  after update of id, username, is_admin, inventory_user, order_user, submission_user, active_status
     or delete on users
  for each statement execute function count_session_change();
create trigger sessions_count_session_change
  after update of id, user_id, expires_at, revoked_at or delete on sessions
  for each statement execute function count_session_change();
create trigger session_tokens_count_session_change
  after update of token_hash, session_id, kind, expires_at on session_tokens
  for each statement execute function count_session_change();

-- Deleted tokens count only when one of them was a live access token (an expired one is no longer
-- remembered: a process keeps an answer no longer than the token's time left).
create function count_session_token_deletes() returns trigger language plpgsql as $$
begin
  if exists (select 1 from gone where kind = 'access' and expires_at > now()) then
    update session_changes set version = version + 1;
  end if;
  return null;
end $$;

create trigger session_tokens_count_deletes after delete on session_tokens
  referencing old table as gone
  for each statement execute function count_session_token_deletes();
