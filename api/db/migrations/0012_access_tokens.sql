-- Personal access tokens for the CLI and CI (docs/auth.md, "Personal access tokens"). Only the
-- SHA-256 of the token is kept; the token itself is shown once, when it is created.
create table access_tokens (
  id serial primary key,
  user_id integer not null references users (id) on delete cascade,
  name text not null check (char_length(name) between 1 and 100),
  token_hash text not null unique,
  -- the first characters of the token (its recognisable prefix and a few more), to tell tokens apart
  token_hint text not null check (char_length(token_hint) <= 20),
  created_at timestamptz not null default now(),
  last_used_at timestamptz,
  revoked_at timestamptz
);
create index access_tokens_user_id_idx on access_tokens (user_id);
