-- Order list at scale (docs/order_tracking.md, "Short terms"): a search term of one or two
-- letters or digits has no trigram, so the trigram indexes of 0004 cannot find it and a rare one
-- ("Q7" in tracking numbers) read every order. Writing each character three times turns every
-- character and every pair of neighbours of the value into a trigram ("q7" → "qqq777": "qqq",
-- "qq7", "q77", "777"), so one more trigram index per searched column finds them:
-- `order_search_tripled(col) like '%' || order_search_tripled(term) || '%'` holds exactly when
-- `col ilike '%term%'` does (a tripled term can only sit on whole tripled characters).
create function order_search_tripled(value text) returns text
  language sql immutable strict parallel safe
  return regexp_replace(lower(value), '(.)', '\1\1\1', 'g');

set local maintenance_work_mem = '256MB';
create index orders_po_short on orders using gin (order_search_tripled(customer_po_number) gin_trgm_ops)
  where not deleted_status;
create index orders_item_short on orders using gin (order_search_tripled(item_number) gin_trgm_ops)
  where not deleted_status;
create index orders_customer_short on orders using gin (order_search_tripled(customer_name) gin_trgm_ops)
  where not deleted_status;
create index orders_ship_to_short on orders using gin (order_search_tripled(ship_to_name) gin_trgm_ops)
  where not deleted_status;
create index orders_supplier_short on orders using gin (order_search_tripled(supplier_name) gin_trgm_ops)
  where not deleted_status;
create index orders_brand_short on orders using gin (order_search_tripled(brand_name) gin_trgm_ops)
  where not deleted_status;
create index orders_tracking_short on orders using gin (order_search_tripled(tracking_search) gin_trgm_ops)
  where not deleted_status;
