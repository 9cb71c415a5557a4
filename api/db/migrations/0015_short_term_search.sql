-- Order list at scale (docs/order_tracking.md, "Short terms"): a search term of one or two
-- letters or digits has no trigram, so the trigram indexes of 0004 cannot find it and a rare one
-- ("Q7" in tracking numbers) read every order. Writing a zero before, between and after the
-- characters turns each character and each pair of neighbours into a trigram ("q7" → "0q070":
-- "0q0", "q07", "070"), so one more trigram index per searched column finds them:
-- `order_search_spread(col) like '%' || order_search_spread(term) || '%'` holds exactly when
-- `col ilike '%term%'` does (a spread term matches whole spread characters, or a run of zeros
-- containing it).
create function order_search_spread(value text) returns text
  language sql immutable strict parallel safe
  return regexp_replace(lower(value), '(.)', '0\1', 'g') || '0';

-- Not partial, unlike the trigram indexes: the planner reads the statistics of an index
-- expression only when the index covers the whole table, and without them it guesses that 4 % of
-- the orders match and reads every one instead (10M orders: 9 s for none).
set local maintenance_work_mem = '256MB';
create index orders_po_short on orders using gin (order_search_spread(customer_po_number) gin_trgm_ops);
create index orders_item_short on orders using gin (order_search_spread(item_number) gin_trgm_ops);
create index orders_customer_short on orders using gin (order_search_spread(customer_name) gin_trgm_ops);
create index orders_ship_to_short on orders using gin (order_search_spread(ship_to_name) gin_trgm_ops);
create index orders_supplier_short on orders using gin (order_search_spread(supplier_name) gin_trgm_ops);
create index orders_brand_short on orders using gin (order_search_spread(brand_name) gin_trgm_ops);
create index orders_tracking_short on orders using gin (order_search_spread(tracking_search) gin_trgm_ops);
analyze orders;
