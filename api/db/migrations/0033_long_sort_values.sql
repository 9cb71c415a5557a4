-- Long values in the sort indexes (docs/order_tracking.md, "Long values"): a btree entry holds
-- at most 2,704 bytes, so a file cell of a few thousand incompressible characters in a sortable
-- text column failed the whole import ("index row size ... exceeds btree version 4 maximum").
-- Each text sort index of migration 0013 is rebuilt on its column's first 512 characters
-- (at most 2,048 bytes, whatever the characters), the expression the list now sorts by
-- (api/order_tracking/search.ts); the values themselves are stored whole. The unique key is
-- kept at 500 characters by the import (api/order_tracking/feed/rows.ts); a tracking number
-- has no length limit, so its uniqueness per order is checked on the md5 of the number.
set local maintenance_work_mem = '256MB';
drop index orders_sort_account_number;
create index orders_sort_account_number on orders (lower(left(account_number, 512)), id) where not deleted_status;
drop index orders_sort_brand_name;
create index orders_sort_brand_name on orders (lower(left(brand_name, 512)), id) where not deleted_status;
drop index orders_sort_customer_name;
create index orders_sort_customer_name on orders (lower(left(customer_name, 512)), id) where not deleted_status;
drop index orders_sort_customer_number;
create index orders_sort_customer_number on orders (lower(left(customer_number, 512)), id) where not deleted_status;
drop index orders_sort_customer_po_number;
create index orders_sort_customer_po_number on orders (lower(left(customer_po_number, 512)), id) where not deleted_status;
drop index orders_sort_document_number;
create index orders_sort_document_number on orders (lower(left(document_number, 512)), id) where not deleted_status;
drop index orders_sort_item_number;
create index orders_sort_item_number on orders (lower(left(item_number, 512)), id) where not deleted_status;
drop index orders_sort_item_status;
create index orders_sort_item_status on orders (lower(left(item_status, 512)), id) where not deleted_status;
drop index orders_sort_line_status;
create index orders_sort_line_status on orders (lower(left(line_status, 512)), id) where not deleted_status;
drop index orders_sort_ship_to_name;
create index orders_sort_ship_to_name on orders (lower(left(ship_to_name, 512)), id) where not deleted_status;
drop index orders_sort_supplier_name;
create index orders_sort_supplier_name on orders (lower(left(supplier_name, 512)), id) where not deleted_status;
drop index orders_sort_supplier_order_status;
create index orders_sort_supplier_order_status on orders (lower(left(supplier_order_status, 512)), id) where not deleted_status;
drop index orders_sort_tracking_search;
create index orders_sort_tracking_search on orders (lower(left(tracking_search, 512)), id) where not deleted_status;
drop index orders_sort_wildcard1;
create index orders_sort_wildcard1 on orders (lower(left(wildcard1, 512)), id) where not deleted_status;
drop index orders_sort_wildcard2;
create index orders_sort_wildcard2 on orders (lower(left(wildcard2, 512)), id) where not deleted_status;
drop index orders_sort_notes;
create index orders_sort_notes on orders (lower(left(notes, 512)), id) where not deleted_status;
alter table tracking_numbers drop constraint tracking_numbers_order_number;
create unique index tracking_numbers_order_number on tracking_numbers (order_id, md5(tracking_number));
analyze orders;
analyze tracking_numbers;
