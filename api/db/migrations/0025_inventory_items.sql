-- The item view of an inventory source (issue 23, docs/inventory.md "Items"): each catalogue
-- item as the last processed run left it, what each run changed, and one item's snapshots read
-- by item rather than by time.

-- One row per catalogue item of a source, written by every processed run (held ones too; an
-- unchanged item is not rewritten); items that left the catalogue are removed. `delivered_status` is the status in the last
-- delivered feed (inventory_delivered_statuses), kept here so the list filters and sorts on it.
create table inventory_items (
  inventory_source_id integer not null references inventory_sources (id),
  item_number text not null check (char_length(item_number) <= 4000),
  -- the normalised key (Strip Leading Zeroes) the snapshots are stored under
  item_key text not null check (char_length(item_key) <= 4000),
  position integer not null,
  quantity double precision,
  status text not null check (status in ('Active', 'Inactive')),
  delivered_status text check (delivered_status in ('Active', 'Inactive')),
  decided_by text not null
    check (decided_by in ('quantity', 'status', 'missing', 'no quantity', 'prediction')),
  -- the rule in words, as the run decided it (shared/inventory/explain.ts)
  reason text not null check (char_length(reason) <= 2000),
  -- the item's last row of the supplier file: at most 40 cells of 200 characters
  row_number integer,
  raw_row jsonb check (octet_length(raw_row::text) <= 12000),
  -- the run that last wrote the row (the source's last run: inventory_runs.supplier_headers set)
  last_run_id bigint not null references import_runs (id),
  -- the last run that turned the item's status (its flips against the last delivered run)
  changed_run_id bigint references import_runs (id),
  changed_at timestamptz,
  primary key (inventory_source_id, item_number)
);
-- One index per sort and filter of the list (api/inventory/items.ts). Nulls (no quantity, never
-- changed) come first ascending and last descending, so one index serves both directions.
create index inventory_items_position on inventory_items (inventory_source_id, position);
create index inventory_items_quantity
  on inventory_items (inventory_source_id, quantity nulls first, item_number);
create index inventory_items_changed
  on inventory_items (inventory_source_id, changed_at nulls first, item_number);
-- the status shown (the delivered feed's, else the last run's): the Status sort and Inactive only
create index inventory_items_shown_status
  on inventory_items (inventory_source_id, (coalesce(delivered_status, status)), item_number);
create index inventory_items_changed_run on inventory_items (inventory_source_id, changed_run_id);
create index inventory_items_missing on inventory_items (inventory_source_id, item_number)
  where decided_by = 'missing';
-- the search box: part of the item number, case-insensitive (pg_trgm, migration 0004)
create index inventory_items_search on inventory_items using gin (item_number gin_trgm_ops);

-- The supplier file's headers of a run (names for the raw rows), at most 40 of 200 characters.
alter table inventory_runs add column supplier_headers jsonb
  check (octet_length(supplier_headers::text) <= 12000);

-- What a run changed: its flips with the rule that decided the new status.
create table inventory_item_changes (
  import_run_id bigint not null references import_runs (id),
  inventory_source_id integer not null references inventory_sources (id),
  item_number text not null check (char_length(item_number) <= 4000),
  from_status text not null check (from_status in ('Active', 'Inactive')),
  to_status text not null check (to_status in ('Active', 'Inactive')),
  decided_by text not null check (char_length(decided_by) <= 20),
  reason text not null check (char_length(reason) <= 2000),
  quantity double precision,
  primary key (import_run_id, item_number)
);
create index inventory_item_changes_item
  on inventory_item_changes (inventory_source_id, item_number, import_run_id desc);

-- One item's quantities over time (the item page's chart, the prediction's figures).
create index inventory_item_snapshots_item
  on inventory_item_snapshots (inventory_source_id, item_number, taken_at);
