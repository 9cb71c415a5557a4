-- Order tracking: sources with their column normalisation, orders, tracking numbers.
-- pg_trgm makes case-insensitive substring search (ilike '%term%') use GIN indexes; PGlite loads
-- it as a contrib extension, PostgreSQL ships it.
create extension if not exists pg_trgm;

create table order_tracking_sources (
  id serial primary key,
  source_name text not null,
  -- no foreign key: e-mail sources are soft-deleted and their table belongs to another feature
  email_source_id integer not null,
  file_type text not null,
  from_email text not null,
  subject_value text not null,
  contains_not_exact boolean not null default false,
  expected_attachment_count integer,
  attachment_name text not null,
  columns_to_ignore text,
  secondary_delimiter text check (char_length(secondary_delimiter) <= 1),
  unique_column text not null,
  delete_after_days integer check (delete_after_days > 0),
  active_status boolean not null default true,
  deleted_status boolean not null default false,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
-- Names show on the home stats, so two live sources may not share one.
create unique index order_tracking_sources_name_key
  on order_tracking_sources (lower(source_name)) where not deleted_status;
create index order_tracking_sources_email_source_idx
  on order_tracking_sources (email_source_id) where not deleted_status;

-- One row per source: the file column feeding each order field (null: the header named like it).
create table order_tracking_column_normalizations (
  id serial primary key,
  order_tracking_source_id integer not null unique
    references order_tracking_sources (id) on delete cascade,
  account_number text,
  brand_name text,
  customer_name text,
  customer_number text,
  customer_po_number text,
  document_number text,
  estimated_arrival_date text,
  item_number text,
  item_status text,
  line_status text,
  order_date text,
  po_date text,
  qty text,
  qty_fulfilled text,
  ship_to_name text,
  shipped_date text,
  supplier_name text,
  supplier_order_status text,
  tracking_numbers text,
  wildcard1 text,
  wildcard2 text
);

create table orders (
  id bigserial primary key,
  order_tracking_source_id integer not null references order_tracking_sources (id),
  -- the value of the source's unique column, as imported; unique within the source
  unique_key text not null,
  account_number text,
  brand_name text,
  customer_name text,
  customer_number text,
  customer_po_number text,
  document_number text,
  estimated_arrival_date timestamp,
  item_number text,
  item_status text,
  line_status text,
  notes text,
  order_date timestamp,
  po_date timestamp,
  qty numeric,
  qty_fulfilled numeric,
  ship_to_name text,
  shipped_date timestamp,
  supplier_name text,
  supplier_order_status text,
  wildcard1 text,
  wildcard2 text,
  -- the tracking numbers joined by newlines: one trigram index serves the tracking search, and
  -- every search term becomes a condition on this one table (BitmapAnd / BitmapOr)
  tracking_search text not null default '',
  active_status boolean not null default true,
  deleted_status boolean not null default false,
  deleted_at timestamptz,
  -- when the order was inserted or a field changed (home stats "Orders Updated")
  last_updated timestamptz not null default now(),
  -- when a file last contained the order (deletion job); not indexed, so that marking an
  -- unchanged order as seen stays a heap-only update
  last_seen_at timestamptz not null default now(),
  created_at timestamptz not null default now(),
  constraint orders_source_unique_key unique (order_tracking_source_id, unique_key)
);

-- Search: one trigram index per searched column, over the live orders the list shows.
create index orders_po_trgm on orders using gin (customer_po_number gin_trgm_ops)
  where not deleted_status;
create index orders_item_trgm on orders using gin (item_number gin_trgm_ops)
  where not deleted_status;
create index orders_customer_trgm on orders using gin (customer_name gin_trgm_ops)
  where not deleted_status;
create index orders_ship_to_trgm on orders using gin (ship_to_name gin_trgm_ops)
  where not deleted_status;
create index orders_supplier_trgm on orders using gin (supplier_name gin_trgm_ops)
  where not deleted_status;
create index orders_brand_trgm on orders using gin (brand_name gin_trgm_ops)
  where not deleted_status;
create index orders_tracking_trgm on orders using gin (tracking_search gin_trgm_ops)
  where not deleted_status;
-- Home stats over the past 24 hours.
create index orders_source_updated_idx on orders (order_tracking_source_id, last_updated);
create index orders_source_deleted_idx on orders (order_tracking_source_id, deleted_at)
  where deleted_at is not null;

create table tracking_numbers (
  id bigserial primary key,
  order_id bigint not null references orders (id) on delete cascade,
  tracking_number text not null,
  constraint tracking_numbers_order_number unique (order_id, tracking_number)
);
