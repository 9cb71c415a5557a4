-- An order that a file lists again unchanged is only marked as seen, and the mark now lives in a
-- narrow table of its own (docs/order_tracking.md, "Unchanged orders"). Written to `orders`, the
-- mark was a new version of the whole row with an entry in each of its 45 indexes (updating every
-- row of a page leaves no room for a heap-only update), so re-importing a file of unchanged orders
-- cost nearly what writing them all did: 0.75-0.97 s against 1.0 s for 2,000 orders on PGlite.
-- An order's last sighting is the later of orders.last_seen_at (written with the order: when it
-- is added, changed or restored) and order_seen.seen_at.
create table order_seen (
  order_id bigint primary key references orders (id) on delete cascade,
  seen_at timestamptz not null
);
