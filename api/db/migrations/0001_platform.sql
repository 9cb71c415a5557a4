-- Users, server-side sessions, password reset and login throttling.

create table users (
  id serial primary key,
  username text not null,
  email text not null default '',
  first_name text not null default '',
  last_name text not null default '',
  -- null until a password is set (a user created without one sets it by password reset)
  password_hash text,
  is_admin boolean not null default false,
  inventory_user boolean not null default false,
  order_user boolean not null default true,
  submission_user boolean not null default false,
  send_notifications_to_email boolean not null default false,
  active_status boolean not null default false,
  created_on timestamptz not null default now(),
  last_login timestamptz
);
create unique index users_username_key on users (lower(username));

-- One row per login: the refresh-token family. Revoking it ends every token issued under it.
create table sessions (
  id text primary key,
  user_id integer not null references users (id) on delete cascade,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  revoked_at timestamptz,
  revoked_reason text,
  ip text not null default '',
  user_agent text not null default ''
);
create index sessions_user_id_idx on sessions (user_id);

-- Only SHA-256 hashes of the cookie values are stored.
create table session_tokens (
  token_hash text primary key,
  session_id text not null references sessions (id) on delete cascade,
  kind text not null check (kind in ('access', 'refresh')),
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  -- refresh tokens: when the token was exchanged; a second use after the grace window is reuse
  used_at timestamptz
);
create index session_tokens_session_id_idx on session_tokens (session_id);

create table password_reset_tokens (
  token_hash text primary key,
  user_id integer not null references users (id) on delete cascade,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  used_at timestamptz
);
create index password_reset_tokens_user_id_idx on password_reset_tokens (user_id);

create table login_failures (
  id bigserial primary key,
  account text not null,
  address text not null,
  at timestamptz not null default now()
);
create index login_failures_account_idx on login_failures (account, at);
create index login_failures_address_idx on login_failures (address, at);
