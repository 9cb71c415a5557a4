-- Deep pages at their first visit (docs/order_tracking.md, "Deep pages", issue 21): a page
-- without a remembered seek point walks the sort's (expression, id) index to its offset, reading
-- only the ids and sort keys. PostgreSQL (and PGlite) serve that walk from the index alone (an
-- index-only scan, no heap row read per order) only when every column the expression uses is in
-- the index: lower(col) alone is not enough, so each text sort index also carries its column
-- (INCLUDE). At 1M orders page 200 of Customer Name ascending read 10,000 heap rows (38 ms of
-- its walk) and now reads about 75 index pages (2 ms). The newest-first order gets the same from
-- an index of the live orders' ids (the primary key holds deleted ones, whose flag is in the
-- heap). Cost: each text sort index grows by its column (39 → 56 MB for Customer Name at 1M).
set local maintenance_work_mem = '256MB';
drop index orders_sort_account_number;
create index orders_sort_account_number on orders (lower(account_number), id) include (account_number) where not deleted_status;
drop index orders_sort_brand_name;
create index orders_sort_brand_name on orders (lower(brand_name), id) include (brand_name) where not deleted_status;
drop index orders_sort_customer_name;
create index orders_sort_customer_name on orders (lower(customer_name), id) include (customer_name) where not deleted_status;
drop index orders_sort_customer_number;
create index orders_sort_customer_number on orders (lower(customer_number), id) include (customer_number) where not deleted_status;
drop index orders_sort_customer_po_number;
create index orders_sort_customer_po_number on orders (lower(customer_po_number), id) include (customer_po_number) where not deleted_status;
drop index orders_sort_document_number;
create index orders_sort_document_number on orders (lower(document_number), id) include (document_number) where not deleted_status;
drop index orders_sort_item_number;
create index orders_sort_item_number on orders (lower(item_number), id) include (item_number) where not deleted_status;
drop index orders_sort_item_status;
create index orders_sort_item_status on orders (lower(item_status), id) include (item_status) where not deleted_status;
drop index orders_sort_line_status;
create index orders_sort_line_status on orders (lower(line_status), id) include (line_status) where not deleted_status;
drop index orders_sort_ship_to_name;
create index orders_sort_ship_to_name on orders (lower(ship_to_name), id) include (ship_to_name) where not deleted_status;
drop index orders_sort_supplier_name;
create index orders_sort_supplier_name on orders (lower(supplier_name), id) include (supplier_name) where not deleted_status;
drop index orders_sort_supplier_order_status;
create index orders_sort_supplier_order_status on orders (lower(supplier_order_status), id) include (supplier_order_status) where not deleted_status;
drop index orders_sort_tracking_search;
create index orders_sort_tracking_search on orders (lower(tracking_search), id) include (tracking_search) where not deleted_status;
drop index orders_sort_wildcard1;
create index orders_sort_wildcard1 on orders (lower(wildcard1), id) include (wildcard1) where not deleted_status;
drop index orders_sort_wildcard2;
create index orders_sort_wildcard2 on orders (lower(wildcard2), id) include (wildcard2) where not deleted_status;
drop index orders_sort_notes;
create index orders_sort_notes on orders (lower(notes), id) include (notes) where not deleted_status;
create index orders_live_id on orders (id) where not deleted_status;
analyze orders;
