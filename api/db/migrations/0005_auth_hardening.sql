-- Login throttling without lockouts (docs/auth.md): growing delays per (account, client address)
-- instead of an account-wide lock that anyone could trigger. `account` is the normalised
-- username (or a key such as `password-change:7`); `failures` counts consecutive failures from
-- that address, `blocked_until` is when the next attempt is admitted.
create table login_throttle (
  account text not null,
  address text not null,
  failures integer not null default 0,
  last_attempt_at timestamptz not null default now(),
  blocked_until timestamptz,
  primary key (account, address)
);
create index login_throttle_last_attempt_idx on login_throttle (last_attempt_at);
