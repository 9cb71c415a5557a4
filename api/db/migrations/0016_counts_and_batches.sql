-- Home stats at any volume (docs/architecture.md, "Maintained counts"): "orders updated / deleted
-- in the past 24 hours" per source is read from counts that the writes to `orders` keep, instead
-- of counting orders on every call. Two tables hold the same net counts: the orders whose current
-- last_updated (updated) or deleted_at (deleted) is
--   * exactly `at`  (order_change_moments: statements stamp every row they write with the same
--     now(), so there is about one row per transaction, not per order), and
--   * within the hour starting at `hour` (order_change_hours, hours in UTC via date_bin).
-- A 24-hour window reads the whole hours inside it from the hours and only its two partial edge
-- hours from the moments, so its cost depends on the sources and on the transactions of two hours,
-- not on the orders. Statement-level triggers with transition tables keep both in the writing
-- transaction: each statement adds +1 for every new row version and -1 for every old one, summed
-- per key, so a statement that touches only last_seen_at cancels out and writes nothing.
create table order_change_moments (
  source_id integer not null,
  at timestamptz not null,
  updated integer not null default 0,
  deleted integer not null default 0,
  primary key (source_id, at)
);

create table order_change_hours (
  source_id integer not null,
  hour timestamptz not null,
  updated integer not null default 0,
  deleted integer not null default 0,
  primary key (source_id, hour)
);

-- Adds the net deltas of one statement (rows of source_id, at, updated, deleted) to both tables,
-- keys in order so that two writers take the counters' row locks in the same order.
create function order_changes_add(deltas jsonb) returns void language sql as $$
  with agg as (
    select d.source_id, d.at, sum(d.updated)::int as updated, sum(d.deleted)::int as deleted
      from jsonb_to_recordset(deltas) as d(source_id integer, at timestamptz, updated integer,
                                           deleted integer)
     group by 1, 2
    having sum(d.updated) <> 0 or sum(d.deleted) <> 0
  ),
  moments as (
    insert into order_change_moments as c (source_id, at, updated, deleted)
    select source_id, at, updated, deleted from agg order by 1, 2
    on conflict (source_id, at) do update
      set updated = c.updated + excluded.updated, deleted = c.deleted + excluded.deleted
  )
  insert into order_change_hours as c (source_id, hour, updated, deleted)
  select source_id, date_bin('1 hour', at, timestamptz '2000-01-01 00:00:00+00'),
         sum(updated)::int, sum(deleted)::int
    from agg group by 1, 2 order by 1, 2
  on conflict (source_id, hour) do update
    set updated = c.updated + excluded.updated, deleted = c.deleted + excluded.deleted;
$$;

create function order_changes_after_insert() returns trigger language plpgsql as $$
begin
  perform order_changes_add(coalesce(jsonb_agg(d), '[]')) from (
    select order_tracking_source_id as source_id, last_updated as at, count(*) as updated,
           0 as deleted
      from new_orders group by 1, 2
    union all
    select order_tracking_source_id, deleted_at, 0, count(*)
      from new_orders where deleted_at is not null group by 1, 2
  ) d;
  return null;
end $$;

create function order_changes_after_update() returns trigger language plpgsql as $$
begin
  perform order_changes_add(coalesce(jsonb_agg(d), '[]')) from (
    select source_id, at, sum(updated) as updated, sum(deleted) as deleted from (
      select order_tracking_source_id as source_id, last_updated as at, 1 as updated, 0 as deleted
        from new_orders
      union all
      select order_tracking_source_id, deleted_at, 0, 1 from new_orders where deleted_at is not null
      union all
      select order_tracking_source_id, last_updated, -1, 0 from old_orders
      union all
      select order_tracking_source_id, deleted_at, 0, -1 from old_orders where deleted_at is not null
    ) c group by 1, 2 having sum(updated) <> 0 or sum(deleted) <> 0
  ) d;
  return null;
end $$;

create function order_changes_after_delete() returns trigger language plpgsql as $$
begin
  perform order_changes_add(coalesce(jsonb_agg(d), '[]')) from (
    select order_tracking_source_id as source_id, last_updated as at, -count(*) as updated,
           0 as deleted
      from old_orders group by 1, 2
    union all
    select order_tracking_source_id, deleted_at, 0, -count(*)
      from old_orders where deleted_at is not null group by 1, 2
  ) d;
  return null;
end $$;

create function order_changes_after_truncate() returns trigger language plpgsql as $$
begin
  delete from order_change_moments;
  delete from order_change_hours;
  return null;
end $$;

create trigger orders_changes_insert after insert on orders
  referencing new table as new_orders
  for each statement execute function order_changes_after_insert();
create trigger orders_changes_update after update on orders
  referencing old table as old_orders new table as new_orders
  for each statement execute function order_changes_after_update();
create trigger orders_changes_delete after delete on orders
  referencing old table as old_orders
  for each statement execute function order_changes_after_delete();
create trigger orders_changes_truncate after truncate on orders
  for each statement execute function order_changes_after_truncate();

-- The orders already stored.
select order_changes_add(coalesce(jsonb_agg(d), '[]')) from (
  select order_tracking_source_id as source_id, last_updated as at, count(*) as updated,
         0 as deleted
    from orders group by 1, 2
  union all
  select order_tracking_source_id, deleted_at, 0, count(*)
    from orders where deleted_at is not null group by 1, 2
) d;

-- Batched imports (docs/architecture.md, "Batched imports"): a long order import commits in
-- batches so that other users' statements run between them. The run's ledger says how many
-- batches are applied and what they counted; each batch commits together with its ledger step,
-- so a run resumed after a crash applies every batch exactly once.
alter table import_runs
  add column batches_done integer not null default 0,
  add column batch_counts jsonb not null default '{}';
-- "Is another run of this source between batches?" reads only the queued runs, whatever the
-- history of the source.
create index import_runs_queued_idx on import_runs (feed, source_id) where status = 'queued';
