-- Inventory sources (spec part 2, section 3), their file data, the per-item quantity history for
-- prediction, the last delivered statuses, the runs' generated files and delivery, the SFTP pull
-- ledger, pinned SFTP host keys and the no-file alert state. docs/inventory.md, "Server".

create table inventory_sources (
  id serial primary key,
  email_source_id integer references email_sources (id),
  source_name text not null check (char_length(source_name) <= 200),
  file_type text not null default '' check (char_length(file_type) <= 200),
  from_email text not null default '' check (char_length(from_email) <= 254),
  days_until_no_update_notification integer,
  expected_attachment_count integer,
  subject_value text not null default '' check (char_length(subject_value) <= 4000),
  contains_not_exact boolean not null default false,
  attachment_name text not null default '' check (char_length(attachment_name) <= 4000),
  item_number_column_name text not null default ''
    check (char_length(item_number_column_name) <= 200),
  qty_column_name text not null default '' check (char_length(qty_column_name) <= 200),
  status_supersedes_quantity boolean not null default false,
  status_available_list text not null default ''
    check (char_length(status_available_list) <= 4000),
  status_out_of_stock_list text not null default ''
    check (char_length(status_out_of_stock_list) <= 4000),
  item_status_column_name text not null default ''
    check (char_length(item_status_column_name) <= 200),
  min_items_to_be_active integer,
  file_has_header boolean not null default true,
  strip_leading_zeroes boolean not null default false,
  uses_predictive_algorithm boolean not null default false,
  lookback_days integer,
  min_data_points integer,
  safety_multiplier double precision,
  safety_padding integer,
  large_drop_threshold integer,
  large_drop_multiplier double precision,
  sftp_server_address text not null default '' check (char_length(sftp_server_address) <= 253),
  sftp_port integer check (sftp_port between 1 and 65535),
  sftp_username text not null default '' check (char_length(sftp_username) <= 200),
  -- AES-256-GCM (api/secrets.ts); never answered, the API shows a placeholder.
  sftp_password_enc text check (char_length(sftp_password_enc) <= 4000),
  sftp_inbox_folder text not null default '' check (char_length(sftp_inbox_folder) <= 4000),
  guard_threshold double precision check (guard_threshold between 0 and 1),
  active_status boolean not null default true,
  deleted_status boolean not null default false,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index inventory_sources_email_idx on inventory_sources (email_source_id)
  where not deleted_status;

-- The file data: the stored sample (template) and the generated file's settings.
create table inventory_file_data (
  inventory_source_id integer primary key references inventory_sources (id),
  user_activated_item_numbers text not null default ''
    check (char_length(user_activated_item_numbers) <= 1000000),
  inventory_file_name text check (char_length(inventory_file_name) <= 200),
  inventory_file_data bytea,
  active_status boolean not null default true,
  header_row_index integer,
  file_has_header boolean not null default true,
  item_number_column_name text not null default ''
    check (char_length(item_number_column_name) <= 200),
  item_status_column_name text not null default ''
    check (char_length(item_status_column_name) <= 200),
  item_status_date_column_name text not null default ''
    check (char_length(item_status_date_column_name) <= 200)
);

-- One quantity per catalogue item per run, read back over the lookback window for prediction.
create table inventory_item_snapshots (
  id bigserial primary key,
  inventory_source_id integer not null references inventory_sources (id),
  import_run_id bigint not null references import_runs (id),
  item_number text not null check (char_length(item_number) <= 4000),
  quantity double precision not null,
  taken_at timestamptz not null
);
create index inventory_item_snapshots_lookback
  on inventory_item_snapshots (inventory_source_id, taken_at);
create index inventory_item_snapshots_run on inventory_item_snapshots (import_run_id);

-- What each run generated and where it went. A held run waits here until released.
create table inventory_runs (
  import_run_id bigint primary key references import_runs (id),
  inventory_source_id integer not null references inventory_sources (id),
  output_file_name text check (char_length(output_file_name) <= 255),
  output_bytes bytea,
  -- the manual-process result (without the file), the run's item statuses, flips and guard
  result jsonb not null default '{}',
  statuses jsonb not null default '[]',
  flips jsonb not null default '[]',
  guard jsonb not null default '{}',
  deliver_sftp boolean not null default false,
  deliver_email boolean not null default false,
  email_to text not null default '' check (char_length(email_to) <= 4000),
  delivery_status text not null default 'pending'
    check (delivery_status in ('pending', 'held', 'delivering', 'delivered', 'failed')),
  -- a delivery in progress is claimed until then (a dead process's claim runs out)
  delivery_claimed_until timestamptz,
  sftp_delivered_at timestamptz,
  email_sent_at timestamptz,
  delivery_log jsonb not null default '[]',
  delivery_error text check (char_length(delivery_error) <= 4000),
  delivered_at timestamptz,
  hold_alert_sent_at timestamptz,
  released_by integer references users (id),
  released_at timestamptz,
  created_at timestamptz not null default now()
);
create index inventory_runs_source_idx on inventory_runs (inventory_source_id, created_at desc);

-- The statuses of the last delivered run per item: the flips and the guard compare with these.
create table inventory_delivered_statuses (
  inventory_source_id integer not null references inventory_sources (id),
  item_number text not null check (char_length(item_number) <= 4000),
  status text not null check (status in ('Active', 'Inactive')),
  import_run_id bigint not null references import_runs (id),
  primary key (inventory_source_id, item_number)
);

-- SFTP pull: the first look at a file (a file is taken when a second look finds it unchanged).
create table inventory_sftp_sightings (
  inventory_source_id integer not null references inventory_sources (id),
  path text not null check (char_length(path) <= 4000),
  size bigint not null,
  mtime bigint not null,
  seen_at timestamptz not null default now(),
  primary key (inventory_source_id, path)
);

-- SFTP pull ledger: a file (path, size, mtime, sha256) is taken once.
create table inventory_sftp_files (
  id bigserial primary key,
  inventory_source_id integer not null references inventory_sources (id),
  path text not null check (char_length(path) <= 4000),
  size bigint not null,
  mtime bigint not null,
  sha256 text not null check (char_length(sha256) = 64),
  import_run_id bigint references import_runs (id),
  taken_at timestamptz not null default now(),
  unique (inventory_source_id, path, size, mtime, sha256)
);

-- Host keys pinned on first contact (per source: a source names one server).
create table inventory_sftp_host_keys (
  inventory_source_id integer not null references inventory_sources (id),
  host text not null check (char_length(host) <= 253),
  port integer not null,
  fingerprint text not null check (char_length(fingerprint) <= 200),
  pinned_at timestamptz not null default now(),
  primary key (inventory_source_id, host, port)
);

-- "Alert After (Days)": one alert per silence (the silence starts at the last file's arrival).
create table inventory_silence_alerts (
  inventory_source_id integer primary key references inventory_sources (id),
  silence_since timestamptz not null,
  alerted_at timestamptz not null default now()
);
